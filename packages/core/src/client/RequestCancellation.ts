/** An `abort` listener as `AbortSignal.addEventListener` takes it. */
type AbortListener = ((event: Event) => void) | { handleEvent(event: Event): void };

/**
 * The abort signal of one SDK request: the part of `AbortSignal` that the SDK's
 * `Protocol.request` uses (`aborted`, `reason`, `throwIfAborted`, `addEventListener('abort')`,
 * `removeEventListener`), without the cost of a real one. A Node `AbortSignal` is an
 * `EventTarget` whose creation and listener bookkeeping cost about as much as recording a message,
 * and the direct client makes one per call only to cancel in-flight requests when it closes.
 * `abort(reason)` behaves like `AbortController.abort`: the first call sets `aborted` and `reason`
 * and calls each listener once with an `abort` event; later calls do nothing.
 */
export class RequestCancellation {
  aborted = false;
  reason: unknown = undefined;
  private listeners: AbortListener[] | undefined;

  /** Throws `reason` once aborted. */
  throwIfAborted(): void {
    if (this.aborted) throw this.reason;
  }

  /** Adds an `abort` listener (other event types never fire); a listener added twice runs once. */
  addEventListener(type: string, listener: AbortListener | null): void {
    if (type !== 'abort' || listener === null || this.aborted) return;
    this.listeners ??= [];
    if (!this.listeners.includes(listener)) this.listeners.push(listener);
  }

  /** Removes an `abort` listener. */
  removeEventListener(type: string, listener: AbortListener | null): void {
    if (type !== 'abort' || listener === null || this.listeners === undefined) return;
    const index = this.listeners.indexOf(listener);
    if (index >= 0) this.listeners.splice(index, 1);
  }

  /** Aborts with `reason`: calls every listener once, in the order they were added. */
  abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    const listeners = this.listeners ?? [];
    this.listeners = undefined;
    const event = new Event('abort');
    for (const listener of listeners) {
      if (typeof listener === 'function') listener(event);
      else listener.handleEvent(event);
    }
  }

  /** This object where the SDK's request options want an `AbortSignal`. */
  asSignal(): AbortSignal {
    return this as unknown as AbortSignal;
  }
}
