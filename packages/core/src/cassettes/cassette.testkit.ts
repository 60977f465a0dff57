// Helpers for the cassette engine's tests: a temporary test file, books on it, and one request per
// model dialect the fake model server speaks.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { JsonObject } from '../json';
import type { CassetteBook } from './CassetteBook';
import type { CassetteMode } from './CassetteMode';
import { openCassetteBook } from './FileCassetteBook';

/** A temporary folder holding the (never created) test file `agents.test.ts`. */
export interface TempTestFile {
  readonly dir: string;
  readonly testFile: string;
  /** `__cassettes__/agents.test.ts.cassette.json` beside it. */
  readonly cassette: string;
  remove(): void;
}

export function tempTestFile(): TempTestFile {
  const dir = mkdtempSync(join(tmpdir(), 'm3-cassette-test-'));
  return {
    dir,
    testFile: join(dir, 'agents.test.ts'),
    cassette: join(dir, '__cassettes__', 'agents.test.ts.cassette.json'),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** Books opened by `bookOn` since the last `finishOpenBooks`. */
const openBooks: CassetteBook[] = [];

/** A book on `file` in `mode` (`update` for `--update-cassettes`). */
export function bookOn(file: TempTestFile, mode: CassetteMode, update = false): CassetteBook {
  const book = openCassetteBook({
    testFile: file.testFile,
    testPath: 'tests/agents.test.ts',
    settings: { mode, update },
  });
  openBooks.push(book);
  return book;
}

/**
 * Finishes every book `bookOn` opened (which stops their channels), so a test that failed halfway
 * leaves no loopback server behind; for `afterEach`.
 */
export async function finishOpenBooks(): Promise<void> {
  const books = openBooks.splice(0);
  await Promise.all(books.map((book) => book.finish({ fullRun: false }).catch(() => undefined)));
}

/** One model request of a dialect: where the client's base URL points and what it posts. */
export interface DialectCall {
  readonly dialect: 'chat completions' | 'responses' | 'anthropic messages';
  /** The upstream (as a client's base URL) for a fake model server with this origin. */
  upstream(origin: string): string;
  /** Path below the base URL. */
  readonly path: string;
  body(stream: boolean, text: string): JsonObject;
}

export const DIALECT_CALLS: readonly DialectCall[] = [
  {
    dialect: 'chat completions',
    upstream: (origin) => `${origin}/v1`,
    path: '/chat/completions',
    body: (stream, text) => ({ model: 'gpt-4o-mini', stream, messages: [{ role: 'user', content: text }] }),
  },
  {
    dialect: 'responses',
    upstream: (origin) => `${origin}/v1`,
    path: '/responses',
    body: (stream, text) => ({ model: 'gpt-5', stream, input: [{ role: 'user', content: text }] }),
  },
  {
    dialect: 'anthropic messages',
    upstream: (origin) => origin,
    path: '/v1/messages',
    body: (stream, text) => ({
      model: 'claude-sonnet',
      max_tokens: 100,
      stream,
      messages: [{ role: 'user', content: text }],
    }),
  },
];

/** A response read whole: status, content type, the body as JSON and SSE events as their raw blocks. */
export interface ReadResponse {
  readonly status: number;
  readonly contentType: string | null;
  readonly json: unknown;
  readonly events: string[] | null;
}

export async function readResponse(response: Response): Promise<ReadResponse> {
  const contentType = response.headers.get('content-type');
  const text = await response.text();
  const stream = contentType?.includes('text/event-stream') ?? false;
  return {
    status: response.status,
    contentType,
    json: stream || text.length === 0 ? null : (JSON.parse(text) as unknown),
    events: stream ? text.split(/\r?\n\r?\n/).filter((block) => block.trim().length > 0) : null,
  };
}
