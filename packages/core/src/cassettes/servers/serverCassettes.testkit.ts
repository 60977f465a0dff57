// Test helpers for the servers' side of cassettes: a real book in a temp folder, the repo's
// example servers, and the tool calls of a finished trace as the wire showed them.
// Excluded from the build.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CassetteBook } from '../CassetteBook';
import type { CassetteMode } from '../CassetteMode';
import { openCassetteBook } from '../FileCassetteBook';
import type { TraceResult } from '../../trace/TraceResult';

const ROOT = join(__dirname, '..', '..', '..', '..', '..');
/** The compiled deterministic math server (stdio); exists after `tsc -b`. */
export const mathServerBin = join(ROOT, 'examples', 'servers', 'dist', 'bin', 'math-server.js');
/** The compiled example server (stdio; `normalize_customer` echoes its input); exists after `tsc -b`. */
export const exampleServerBin = join(ROOT, 'examples', 'servers', 'dist', 'bin', 'example-server.js');
/** A server command that does not exist: a replay that started the server would fail. */
export const MISSING_COMMAND = '/nonexistent/sf-m3-cassette-test/no-such-server';

/** A fresh folder standing in for the folder of a test file. */
export function testFolder(): string {
  return mkdtempSync(join(tmpdir(), 'sf-m3-casmcp-'));
}

/** The cassette book of `agent.test.ts` in `folder`, in `mode`. */
export function bookIn(folder: string, mode: CassetteMode, update = false): CassetteBook {
  return openCassetteBook({
    testFile: join(folder, 'agent.test.ts'),
    testPath: 'agent.test.ts',
    settings: { mode, update },
  });
}

/** The cassette file a book in `folder` writes. */
export function cassetteFileIn(folder: string): string {
  return join(folder, '__cassettes__', 'agent.test.ts.cassette.json');
}

/** The tool calls of a finished trace as observed on the wire: tool, arguments, status and result. */
export function wireToolCalls(trace: TraceResult): unknown[] {
  return trace.view().toolCalls.map((c) => ({
    server: c.server,
    tool: c.tool.value,
    arguments: c.arguments.value,
    status: c.status,
    result: c.result.value,
  }));
}

/** The JSON-RPC methods of a finished trace's wire requests, in order, per server. */
export function wireMethods(trace: TraceResult): string[] {
  return trace.events
    .filter((e) => e.direction === 'client_to_server' && typeof (e.payload as { method?: unknown }).method === 'string')
    .map((e) => `${e.server} ${(e.payload as { method: string }).method}`);
}
