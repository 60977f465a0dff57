import { request, type ClientRequest } from 'node:http';
import type { NativeEventRecorder } from '../native/NativeEventRecorder';
import { SseDataParser } from '../wire/SseDataParser';
import { isObject } from '../../json';

/** Bound on the event data buffered before it is read (a runaway line ends the stream). */
const MAX_PENDING_BYTES = 8 * 1024 * 1024;

/** Where the stream connects and what it does with the session's messages. */
export interface OpencodeEventStreamOptions {
  readonly origin: string;
  readonly directory: string;
  readonly authorization: string;
  readonly sessionId: string;
  /** The session's messages known from the stream (`{ info, parts }[]`, oldest first), after each change. */
  readonly onMessages: (messages: readonly { info: Record<string, unknown>; parts: unknown[] }[]) => void;
  /** Each event of the session's messages is kept as a raw frame (text deltas are not). */
  readonly events: NativeEventRecorder;
}

interface Mirror {
  info: Record<string, unknown> | undefined;
  readonly parts: Map<string, Record<string, unknown>>;
}

/**
 * OpenCode's event stream (`GET /event`, server-sent events): `message.updated` (a message's
 * `info`) and `message.part.updated` (a whole part) of one session, mirrored into the history
 * shape so the message recorder sees tool parts as they run (text deltas are ignored: whole
 * messages come from the history). A complete message leaves the mirror once it has been handed
 * on. `connected` stays false when the stream cannot be opened or has ended (the driver then
 * reads the history on a timer).
 */
export class OpencodeEventStream {
  private req: ClientRequest | undefined;
  private readonly mirror = new Map<string, Mirror>();
  connected = false;

  constructor(private readonly options: OpencodeEventStreamOptions) {}

  /** Opens the stream; resolves whether it is connected (false on any error, a non-2xx answer or `signal`). */
  open(signal: AbortSignal): Promise<boolean> {
    const { origin, directory, authorization } = this.options;
    return new Promise<boolean>((resolve) => {
      const headers = { authorization, 'x-opencode-directory': directory, accept: 'text/event-stream' };
      const req = request(new URL('/event', origin), { method: 'GET', headers, agent: false });
      this.req = req;
      const onAbort = (): void => {
        req.destroy();
        resolve(false);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      req.on('error', () => {
        this.connected = false;
        resolve(false);
      });
      req.on('response', (res) => {
        signal.removeEventListener('abort', onAbort);
        const status = res.statusCode ?? 0;
        if (status < 200 || status > 299) {
          res.resume();
          req.destroy();
          resolve(false);
          return;
        }
        this.connected = true;
        resolve(true);
        const parser = new SseDataParser();
        let pending = 0;
        res.on('data', (chunk: Buffer) => {
          pending += chunk.length;
          const data = parser.push(chunk);
          if (data.length > 0) pending = 0;
          if (pending > MAX_PENDING_BYTES) req.destroy();
          for (const item of data) this.handle(item);
        });
        res.on('close', () => {
          this.connected = false;
        });
      });
      req.end();
    });
  }

  /** Ends the stream (idempotent). */
  close(): void {
    this.connected = false;
    this.req?.destroy();
  }

  private handle(data: string): void {
    let event: unknown;
    try {
      event = JSON.parse(data);
    } catch {
      return;
    }
    if (!isObject(event) || !isObject(event.properties)) return;
    const props = event.properties;
    if (props.sessionID !== this.options.sessionId) return;
    if (event.type === 'message.updated' && isObject(props.info) && typeof props.info.id === 'string') {
      this.entry(props.info.id).info = props.info;
    } else if (event.type === 'message.part.updated' && isObject(props.part)) {
      const part = props.part;
      if (typeof part.messageID !== 'string' || typeof part.id !== 'string') return;
      this.entry(part.messageID).parts.set(part.id, part);
    } else {
      return;
    }
    this.options.events.frame('harness_to_sdk', data);
    const messages = [...this.mirror.values()].flatMap((m) =>
      m.info === undefined ? [] : [{ info: m.info, parts: [...m.parts.values()] }],
    );
    this.options.onMessages(messages);
    for (const [id, m] of this.mirror) {
      const info = m.info;
      if (
        info !== undefined &&
        ((isObject(info.time) && info.time.completed !== undefined) || info.error !== undefined)
      ) {
        this.mirror.delete(id);
      }
    }
  }

  private entry(id: string): Mirror {
    let entry = this.mirror.get(id);
    if (entry === undefined) {
      entry = { info: undefined, parts: new Map() };
      this.mirror.set(id, entry);
    }
    return entry;
  }
}
