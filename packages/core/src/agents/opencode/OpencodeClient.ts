import { request } from 'node:http';
import { M3Error } from '../../errors';
import type { NativeEventRecorder } from '../native/NativeEventRecorder';

/** Bound on one response body of the OpenCode server (a long session's history included). */
export const MAX_OPENCODE_BODY_BYTES = 8 * 1024 * 1024;

/** Where the client talks and how it proves who it is. */
export interface OpencodeClientOptions {
  /** `http://127.0.0.1:PORT` as the server printed it. */
  readonly origin: string;
  /** The workspace, sent as `x-opencode-directory` (OpenCode's instance is per directory). */
  readonly directory: string;
  /** The server's basic-auth password (`OPENCODE_SERVER_PASSWORD`, user `opencode`). */
  readonly password: string;
  /** Every request and response body is kept as a raw frame. */
  readonly events: NativeEventRecorder;
}

/** A JSON client of `opencode serve`'s HTTP API (node:http: no client-side header or body timeouts). */
export class OpencodeClient {
  private readonly authorization: string;

  constructor(private readonly options: OpencodeClientOptions) {
    this.authorization = `Basic ${Buffer.from(`opencode:${options.password}`).toString('base64')}`;
  }

  /**
   * One request; resolves the parsed JSON body of a 2xx answer. Rejects with `opencode_http_error`
   * (status and a bounded body excerpt), `opencode_protocol_error` (not JSON, over the bound) or
   * `opencode_connection_lost`; rejects with `signal.reason` when `signal` aborts first.
   */
  call<T = unknown>(method: 'GET' | 'POST', path: string, body: unknown, signal: AbortSignal): Promise<T> {
    const { origin, directory, events } = this.options;
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const operation = `${method} ${path.replace(/ses_[A-Za-z0-9]+/, '{sessionID}')}`;
    return new Promise<T>((resolve, reject) => {
      if (signal.aborted) {
        reject(signal.reason);
        return;
      }
      const headers: Record<string, string> = {
        authorization: this.authorization,
        'x-opencode-directory': directory,
        accept: 'application/json',
      };
      if (payload !== undefined) {
        headers['content-type'] = 'application/json';
        headers['content-length'] = String(Buffer.byteLength(payload));
      }
      const req = request(new URL(path, origin), { method, headers, agent: false, signal });
      const fail = (error: unknown): void => reject(signal.aborted ? signal.reason : error);
      req.on('error', (error) =>
        fail(
          new M3Error('opencode_connection_lost', `the OpenCode server connection broke during ${operation}`, {
            operation,
            errorType: error.name,
          }),
        ),
      );
      req.on('response', (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_OPENCODE_BODY_BYTES) {
            res.destroy();
            fail(
              new M3Error(
                'opencode_protocol_error',
                `the OpenCode server answered ${operation} with a body over ${MAX_OPENCODE_BODY_BYTES} bytes`,
                { operation },
              ),
            );
            return;
          }
          chunks.push(chunk);
        });
        res.on('error', (error) => fail(error));
        res.on('end', () => {
          if (size > MAX_OPENCODE_BODY_BYTES) return;
          const raw = Buffer.concat(chunks);
          events.frame('harness_to_sdk', raw);
          const status = res.statusCode ?? 0;
          const text = raw.toString('utf8');
          if (status < 200 || status > 299) {
            fail(
              new M3Error('opencode_http_error', `the OpenCode server answered ${operation} with HTTP ${status}`, {
                operation,
                status,
                body: text.slice(0, 500),
              }),
            );
            return;
          }
          try {
            resolve(JSON.parse(text) as T);
          } catch {
            fail(
              new M3Error('opencode_protocol_error', `the OpenCode server answered ${operation} with a non-JSON body`, {
                operation,
                status,
              }),
            );
          }
        });
      });
      if (payload !== undefined) events.frame('sdk_to_harness', payload);
      req.end(payload);
    });
  }
}
