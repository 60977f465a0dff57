// Where a CI report goes: stdout, or `--output FILE` (parent folders created, written to a
// temporary file beside it and renamed, so a reader never sees half a report).
import { mkdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { displayPath } from '../displayPath';
import type { CliIO } from '../CliIO';
import { UsageError } from '../options/UsageError';

/** Writes `text` to `output` (or stdout when null); `what` names the report in the confirmation line. */
export function writeReportOutput(text: string, output: string | null, what: string, io: CliIO): void {
  if (output === null) {
    io.stdout(text);
    return;
  }
  const shown = displayPath(io.cwd, output);
  let isFolder = false;
  try {
    isFolder = statSync(output).isDirectory();
  } catch {
    // Not there yet: written below.
  }
  if (isFolder) throw new UsageError('--output', `${shown} is a folder: name a file, e.g. ${shown}/report.xml`);
  const temporary = `${output}.${process.pid}.tmp`;
  try {
    mkdirSync(dirname(output), { recursive: true });
    writeFileSync(temporary, text, 'utf8');
    renameSync(temporary, output);
  } catch (error) {
    rmSync(temporary, { force: true });
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    throw new UsageError('--output', `could not write ${shown} (${code}): choose a writable path`);
  }
  io.stdout(`wrote ${what} to ${shown}\n`);
}
