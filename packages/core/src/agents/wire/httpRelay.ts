import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SseDataParser } from './SseDataParser';
import type { WireEventWriter } from './WireEventWriter';

/** Largest request body the reverse proxy reads (a `tools/call` is far smaller). */
export const MAX_BODY_BYTES = 16 * 1024 * 1024;

/** Reads a request body; null when it is larger than `MAX_BODY_BYTES`. */
export async function readBody(req: IncomingMessage): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) return null;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** Listens on 127.0.0.1 (a free port); resolves the port. */
export async function listenOnLoopback(http: Server): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(0, '127.0.0.1', () => resolve());
  });
  return (http.address() as AddressInfo).port;
}

/** Answers with a JSON body; when the headers are already sent, only ends the response. */
export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

/** Answers with a JSON-RPC error (`id: null`, code -32000) through `sendJson`. */
export function sendJsonRpcError(res: ServerResponse, status: number, message: string): void {
  sendJson(res, status, { jsonrpc: '2.0', id: null, error: { code: -32000, message } });
}

/** JSON.parse without throwing. */
export function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

/**
 * Relays an upstream SSE stream to the agent chunk by chunk, recording each event's JSON-RPC
 * message(s) as it completes; then the proxy's answers to denied calls of the same request are
 * sent as extra events.
 */
export async function relayEventStream(
  res: ServerResponse,
  response: Response,
  headers: Record<string, string>,
  writer: WireEventWriter,
  denied: unknown[],
  /** Sees every message the server sent (the servers' cassette records them). */
  observe?: (message: unknown) => void,
): Promise<void> {
  res.writeHead(response.status, headers);
  res.flushHeaders();
  const parser = new SseDataParser();
  const record = (data: string) => {
    const parsed = parseJson(data);
    if (!parsed.ok) {
      if (data.length > 0) {
        writer.diagnostic('non_json_frame', 'an SSE event whose data is not JSON was relayed', {
          direction: 'server_to_client',
          raw: data,
        });
      }
      return;
    }
    const messages = Array.isArray(parsed.value) ? (parsed.value as unknown[]) : [parsed.value];
    for (const m of messages) {
      writer.message(m, undefined, 'server_to_client');
      observe?.(m);
    }
  };
  try {
    if (response.body !== null) {
      // Node's web stream is async-iterable; typed as such because the DOM lib (pulled in by
      // browser-test types in the repo's test type check) declares ReadableStream without it.
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        parser.push(chunk as Uint8Array).forEach(record);
        // Backpressure: an agent that stops reading holds the server's stream back.
        if (!res.write(chunk) && !res.writableEnded) {
          await new Promise<void>((resolve) => {
            res.once('drain', resolve);
            res.once('close', resolve);
          });
        }
      }
    }
    parser.end().forEach(record);
  } catch {
    // The agent or the proxy closed the stream: nothing more to relay.
  }
  for (const m of denied) {
    writer.message(m, undefined, 'server_to_client', { answeredByProxy: true });
    if (!res.writableEnded) res.write(`event: message\ndata: ${JSON.stringify(m)}\n\n`);
  }
  if (!res.writableEnded) res.end();
}
