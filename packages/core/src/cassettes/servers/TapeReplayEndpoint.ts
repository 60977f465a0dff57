import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { McpServerTape } from './McpServerTape';
import { isRequestMessage } from './mcpTapeMessages';

/** The largest request the endpoint reads (one JSON-RPC request from an agent). */
const MAX_BODY_BYTES = 16 * 1024 * 1024;

/**
 * The loopback endpoint the capture proxy asks for replayed answers (contract §24): `POST` with
 * `{ message }` (one JSON-RPC request) and `Authorization: Bearer <token>`; answers `{ messages }`
 * from the server's tape. Listens on 127.0.0.1 only; the token (32 random bytes) travels to the
 * proxy in its one-shot 0600 config file, so no other local process is answered.
 */
export class TapeReplayEndpoint {
  private constructor(
    private readonly server: Server,
    readonly url: string,
    readonly token: string,
  ) {}

  static async start(tape: McpServerTape): Promise<TapeReplayEndpoint> {
    const token = randomBytes(32).toString('hex');
    const expected = Buffer.from(`Bearer ${token}`, 'utf8');
    const server = createServer((req, res) => {
      handle(req, res, tape, expected).catch(() => reply(res, 500, { error: 'the replay endpoint failed' }));
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    server.unref();
    const { port } = server.address() as AddressInfo;
    return new TapeReplayEndpoint(server, `http://127.0.0.1:${port}/answer`, token);
  }

  /** Stops listening and drops open connections; idempotent. */
  close(): Promise<void> {
    return new Promise((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }
}

async function handle(req: IncomingMessage, res: ServerResponse, tape: McpServerTape, expected: Buffer): Promise<void> {
  const given = Buffer.from(req.headers.authorization ?? '', 'utf8');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    req.resume();
    return reply(res, 401, { error: 'unauthorized' });
  }
  if (req.method !== 'POST') return reply(res, 405, { error: 'POST only' });
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) return reply(res, 413, { error: 'request too large' });
    chunks.push(chunk as Buffer);
  }
  let message: unknown;
  try {
    message = (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { message?: unknown }).message;
  } catch {
    return reply(res, 400, { error: 'the body must be JSON: { "message": <JSON-RPC request> }' });
  }
  if (!isRequestMessage(message)) return reply(res, 400, { error: 'message must be a JSON-RPC request' });
  reply(res, 200, { messages: tape.answer(message) });
}

function reply(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}
