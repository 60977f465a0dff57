import { OperationCancelled, OperationTimeout } from '../errors';
import type { JsonValue } from '../json';
import type { TraceEvent } from '../trace/Event';

/** One notification the server sent, as the trace recorded it (params redacted). */
export interface ReceivedNotification {
  /** The notification's method, e.g. `notifications/tools/list_changed`. */
  readonly method: string;
  /** Its params, redacted like every trace payload (`null` when it had none). */
  readonly params: JsonValue;
  /** 1-based position among the notifications this client received. */
  readonly order: number;
  /** The trace event that records it (`mcp.notification`, `mcp.progress`, ...). */
  readonly eventId: string;
}

/** The trace event kinds a server notification is recorded as. */
const NOTIFICATION_KINDS = new Set(['mcp.notification', 'mcp.progress', 'mcp.cancellation_requested']);

/**
 * The `subscriptions/listen` acknowledgement: plumbing of the modern era (the legacy era's
 * counterpart is the `resources/subscribe` response), so it is left out for the same test code to
 * see the same notifications in both eras. The trace still records it.
 */
const LISTEN_ACKNOWLEDGED = 'notifications/subscriptions/acknowledged';

/** The `client.listen` option that asks for a notification method, for the timeout's fix. */
function listenOptionFor(method: string): string | undefined {
  switch (method) {
    case 'notifications/tools/list_changed':
      return 'toolsChanged: true';
    case 'notifications/prompts/list_changed':
      return 'promptsChanged: true';
    case 'notifications/resources/list_changed':
      return 'resourcesChanged: true';
    case 'notifications/resources/updated':
      return "resourceUris: ['<uri>']";
    default:
      return undefined;
  }
}

interface Waiter {
  readonly method: string;
  readonly resolve: (notification: ReceivedNotification) => void;
  readonly cancel: (error: Error) => void;
}

/**
 * The server notifications of one connection, read from its trace (where `ObservedTransport`
 * records every message, so there is one record of them), and the `waitForNotification` waiters.
 * Each notification is handed to at most one wait: a wait takes the oldest notification of its
 * method that no earlier wait took, so a notification that arrived before the wait began is not
 * lost.
 */
export class NotificationLog {
  private readonly received: ReceivedNotification[] = [];
  /** Per method: how many of its notifications earlier waits took. */
  private readonly taken = new Map<string, number>();
  private readonly waiters: Waiter[] = [];

  /** The notifications so far, in received order. */
  get notifications(): readonly ReceivedNotification[] {
    return [...this.received];
  }

  /** Takes in one trace event (anything but a server notification is ignored). */
  observe(event: TraceEvent): void {
    if (!NOTIFICATION_KINDS.has(event.kind) || event.direction !== 'server_to_client') return;
    const method = event.payload.method;
    if (typeof method !== 'string' || method === LISTEN_ACKNOWLEDGED) return;
    const notification: ReceivedNotification = {
      method,
      params: event.payload.params ?? null,
      order: this.received.length + 1,
      eventId: event.eventId,
    };
    this.received.push(notification);
    const index = this.waiters.findIndex((w) => w.method === method);
    if (index >= 0) {
      const [waiter] = this.waiters.splice(index, 1);
      this.take(method);
      waiter!.resolve(notification);
    }
  }

  /**
   * The oldest notification of `method` no earlier wait took, or the next one to arrive; rejects
   * with `OperationTimeout` after `timeoutMs`.
   */
  waitFor(method: string, timeoutMs: number, server: string): Promise<ReceivedNotification> {
    const waiting = this.waiters.some((w) => w.method === method);
    const unclaimed = this.received.filter((n) => n.method === method)[this.taken.get(method) ?? 0];
    if (!waiting && unclaimed !== undefined) {
      this.take(method);
      return Promise.resolve(unclaimed);
    }
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        method,
        resolve: (notification) => {
          clearTimeout(timer);
          resolve(notification);
        },
        cancel: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      };
      const timer = setTimeout(() => {
        const index = this.waiters.indexOf(waiter);
        if (index >= 0) this.waiters.splice(index, 1);
        reject(this.timeout(method, timeoutMs, server));
      }, timeoutMs);
      this.waiters.push(waiter);
    });
  }

  /** Rejects every pending wait with `OperationCancelled` (the client is closing). */
  cancelWaits(server: string): void {
    for (const waiter of this.waiters.splice(0)) {
      waiter.cancel(
        new OperationCancelled(
          `the client of ${server} closed while waiting for ${waiter.method}; await the notification before closing`,
          { operation: 'waitForNotification', method: waiter.method },
        ),
      );
    }
  }

  private take(method: string): void {
    this.taken.set(method, (this.taken.get(method) ?? 0) + 1);
  }

  private timeout(method: string, timeoutMs: number, server: string): OperationTimeout {
    const option = listenOptionFor(method);
    const seen = [...new Set(this.received.map((n) => n.method))];
    return new OperationTimeout(
      `no ${method} notification arrived from ${server} within ${timeoutMs} ms ` +
        `(received so far: ${seen.length > 0 ? seen.join(', ') : 'none'}). ` +
        (option !== undefined ? `Call client.listen({ ${option} }) before triggering the change, ` : '') +
        'check that the server sends it (and declares the capability), or pass a larger timeoutMs',
      { operation: 'waitForNotification', method, timeoutMs, server },
    );
  }
}
