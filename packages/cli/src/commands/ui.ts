// `m3 ui [--results-db PATH] [--port N] [--no-open]`: the read-only viewer over the results database.
import type { CliIO } from '../CliIO';
import { resolveResultsDb } from '../options/testOptions';
import { parsePort } from '../ui/parsePort';
import { serveViewer } from '../ui/serveViewer';

/** Options of `m3 ui`. */
export interface UiCommandInput {
  resultsDb?: string;
  port?: string;
  /** commander's `--no-open` sets this false. */
  open?: boolean;
}

/** Runs `m3 ui` until Ctrl-C; returns 0 then. */
export async function runUiCommand(
  input: UiCommandInput,
  io: CliIO,
  isTerminal = Boolean(process.stdout.isTTY),
): Promise<number> {
  const port = parsePort('--port', input.port);
  const resultsDb = resolveResultsDb(input.resultsDb, io.cwd);
  await serveViewer({ resultsDb, port, open: input.open !== false && isTerminal }, io);
  return 0;
}
