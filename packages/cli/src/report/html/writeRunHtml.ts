// The `--html DIR` step of `m3 report`: the static report of the resolved run, written from the
// read-only store the command already opened.
import { isAbsolute, resolve } from 'node:path';
import type { ExecutionStore } from '@sf-m3/core';
import { cliRedactor, type CliIO } from '../../CliIO';
import { displayPath } from '../../displayPath';
import { UsageError } from '../../options/UsageError';
import { ViewerApi } from '../../ui/api/ViewerApi';
import { writeHtmlReport } from './writeHtmlReport';

/** Writes the report and prints where (on stderr with --json, so stdout stays one document). */
export async function writeRunHtml(
  store: ExecutionStore,
  runId: string,
  dir: string,
  io: CliIO,
  resultsDb: string,
): Promise<void> {
  if (dir.trim() === '')
    throw new UsageError('--html', 'needs a folder to write the report into, e.g. --html m3-report');
  const target = isAbsolute(dir) ? dir : resolve(io.cwd, dir);
  const redactor = cliRedactor(io.env);
  const api = new ViewerApi(store, { redactor, resultsDb: displayPath(io.cwd, resultsDb), cwd: io.cwd });
  let written;
  try {
    written = await writeHtmlReport(api, runId, target);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EACCES' || code === 'EEXIST' || code === 'ENOTDIR' || code === 'EROFS') {
      throw new UsageError(
        '--html',
        `cannot write the report into ${displayPath(io.cwd, target)} (${code}); pick a writable folder`,
      );
    }
    throw error;
  }
  io.stderr(
    `m3 report: wrote the HTML report of ${runId} to ${displayPath(io.cwd, written.indexPath)} (${written.bytes} bytes)\n`,
  );
}
