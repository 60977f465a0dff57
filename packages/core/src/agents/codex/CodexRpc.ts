import type { Readable, Writable } from 'node:stream';
import { M3Error } from '../../errors';
import { readNdjsonLines, writeNdjsonLine } from '../native/ndjsonLines';
import { isObject } from '../../json';

type JsonRpcId = number | string;
type Params = Record<string, unknown>;

/** What the connection reports: raw frames, notifications, server→client requests, unreadable lines, the end. */
export interface CodexRpcHandlers {
  readonly frame: (direction: 'sdk_to_harness' | 'harness_to_sdk', raw: Buffer | string) => void;
  readonly notification: (method: string, params: Params) => void;
  /** Answers a request Codex sends the kit: resolve a result, or throw a `CodexRpcRefusal`. */
  readonly request: (method: string, params: Params) => Promise<unknown>;
  readonly malformed: (reason: string) => void;
}

/** A JSON-RPC error the kit answers a Codex request with. */
export class CodexRpcRefusal extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/** Codex answered a request with a JSON-RPC error. */
export class CodexRpcError extends M3Error {
  constructor(method: string, code: number, message: string) {
    super('codex_request_failed', `codex app-server answered ${method} with JSON-RPC error ${code}: ${message}`, {
      method,
      jsonrpcCode: code,
    });
  }
}

/**
 * JSON-RPC 2.0 over `codex app-server`'s stdio (one JSON object a line): numbered requests with
 * their answers, notifications both ways, and requests from Codex answered through `handlers`.
 * Every line both ways is handed to `handlers.frame` first (evidence).
 */
export class CodexRpc {
  private nextId = 1;
  private readonly pending = new Map<
    JsonRpcId,
    { method: string; settle: (error: Error | null, v?: unknown) => void }
  >();
  private readonly stopReading: () => void;
  private closedError: Error | undefined;

  constructor(
    private readonly stdin: Writable,
    stdout: Readable,
    private readonly handlers: CodexRpcHandlers,
  ) {
    this.stopReading = readNdjsonLines(stdout, {
      message: (value, raw) => {
        handlers.frame('harness_to_sdk', raw);
        this.dispatch(value);
      },
      malformed: (raw, reason) => {
        handlers.frame('harness_to_sdk', raw);
        handlers.malformed(`codex app-server wrote a line that is ${reason}`);
      },
      end: () => this.fail(new M3Error('codex_connection_lost', 'codex app-server closed its output', {})),
    });
  }

  /** True once the output ended or `close()` was called. */
  get closed(): boolean {
    return this.closedError !== undefined;
  }

  /** One request; rejects with `CodexRpcError` for an error answer, or the connection's end. */
  request<T = Params>(method: string, params: Params): Promise<T> {
    if (this.closedError !== undefined) return Promise.reject(this.closedError);
    const id = this.nextId++;
    const answer = new Promise<T>((resolve, reject) => {
      this.pending.set(id, { method, settle: (error, v) => (error === null ? resolve(v as T) : reject(error)) });
    });
    void this.write({ jsonrpc: '2.0', id, method, params });
    return answer;
  }

  /** One notification (no answer). */
  notify(method: string, params?: Params): Promise<boolean> {
    return this.write({ jsonrpc: '2.0', method, ...(params !== undefined && { params }) });
  }

  /** Stops reading and fails what is still waiting. */
  close(): void {
    this.stopReading();
    this.fail(new M3Error('codex_connection_lost', 'the connection to codex app-server was closed', {}));
  }

  private write(message: Params): Promise<boolean> {
    const line = JSON.stringify(message);
    this.handlers.frame('sdk_to_harness', line);
    return writeNdjsonLine(this.stdin, message);
  }

  private fail(error: Error): void {
    this.closedError ??= error;
    for (const [id, waiter] of this.pending) {
      this.pending.delete(id);
      waiter.settle(error);
    }
  }

  private dispatch(message: Params): void {
    const { id, method } = message;
    const params = isObject(message.params) ? message.params : {};
    if (typeof method === 'string' && (typeof id === 'number' || typeof id === 'string')) {
      void this.answer(id, method, params);
    } else if (typeof method === 'string') {
      this.handlers.notification(method, params);
    } else if (typeof id === 'number' || typeof id === 'string') {
      const waiter = this.pending.get(id);
      if (waiter === undefined) return this.handlers.malformed(`codex app-server answered unknown request id ${id}`);
      this.pending.delete(id);
      if (isObject(message.error)) {
        const code = typeof message.error.code === 'number' ? message.error.code : 0;
        const text = typeof message.error.message === 'string' ? message.error.message : 'no message';
        waiter.settle(new CodexRpcError(waiter.method, code, text));
      } else {
        waiter.settle(null, message.result);
      }
    } else {
      this.handlers.malformed('codex app-server wrote a JSON object that is no JSON-RPC message');
    }
  }

  private async answer(id: JsonRpcId, method: string, params: Params): Promise<void> {
    try {
      const result = await this.handlers.request(method, params);
      await this.write({ jsonrpc: '2.0', id, result });
    } catch (error) {
      const refusal =
        error instanceof CodexRpcRefusal ? error : new CodexRpcRefusal(-32603, 'the kit failed to answer');
      await this.write({ jsonrpc: '2.0', id, error: { code: refusal.code, message: refusal.message } });
    }
  }
}
