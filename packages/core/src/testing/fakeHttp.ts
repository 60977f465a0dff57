import type { IncomingMessage, ServerResponse } from 'node:http';
import type { JsonValue } from '../json';

const MAX_BODY_BYTES = 8 * 1024 * 1024;

/** Reads a request body as UTF-8 (bounded at 8 MiB; a broken stream reads as empty). */
export function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', () => resolve(''));
  });
}

/** Parses a JSON body; null when empty or not JSON. */
export function parseJsonBody(raw: string): JsonValue | null {
  if (raw.length === 0) return null;
  try {
    return JSON.parse(raw) as JsonValue;
  } catch {
    return null;
  }
}

/** Lower-cased request headers, repeated values joined. */
export function headersOf(req: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

/** Sends a JSON response unless the connection is gone. */
export function sendJson(
  res: ServerResponse,
  status: number,
  body: JsonValue,
  headers: Readonly<Record<string, string>> = {},
): void {
  if (res.destroyed) return;
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

/** Starts a server-sent-events response. */
export function startEventStream(res: ServerResponse, headers: Readonly<Record<string, string>> = {}): boolean {
  if (res.destroyed) return false;
  res.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
    ...headers,
  });
  return true;
}

/** One server-sent event: `event:` line when named, then one `data:` line of JSON. */
export function sseEvent(data: JsonValue, event?: string): string {
  return `${event !== undefined ? `event: ${event}\n` : ''}data: ${JSON.stringify(data)}\n\n`;
}

/** A JSON object field, or undefined when the value is not an object. */
export function field(value: JsonValue | null | undefined, key: string): JsonValue | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? value[key] : undefined;
}

/** The value as an array of values (empty unless it is an array). */
export function arrayOf(value: JsonValue | undefined): JsonValue[] {
  return Array.isArray(value) ? value : [];
}

/** The value when it is a string, else undefined. */
export function stringOf(value: JsonValue | undefined): string | undefined {
  return typeof value === 'string' ? value : undefined;
}
