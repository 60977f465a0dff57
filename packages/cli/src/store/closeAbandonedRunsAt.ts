// `m3 runs` and `m3 report` close the runs a killed `jest` left `running` before they read.
import type { ExecutionStore, Redactor } from '@sf-m3/core';
import { abandonedReason, closeAbandonedRun, findAbandonedRuns } from '@sf-m3/core/internal';
import type { CliIO } from '../CliIO';
import { openRunResultsStore } from './openResultsStore';

/**
 * Finds, through the command's read-only `reader`, the runs still `running` whose processes are
 * all gone (a SIGKILLed `jest` never ran its teardown), then opens the database for writing and
 * closes each `interrupted`, one stderr line per run. Where the database cannot be written (a
 * read-only copy) it says so in one line and leaves them as saved.
 */
export async function closeAbandonedRunsAt(
  path: string,
  reader: ExecutionStore,
  io: CliIO,
  redactor: Redactor,
): Promise<void> {
  const abandoned = await findAbandonedRuns(reader);
  if (abandoned.length === 0) return;
  const say = (line: string): void => io.stderr(`${redactor.redactText(line)}\n`);
  let writer: ExecutionStore;
  try {
    writer = await openRunResultsStore(path);
  } catch (error) {
    const ids = abandoned.map((a) => a.run.runId).join(', ');
    say(
      `m3: ${ids} ${abandoned.length === 1 ? 'was' : 'were'} left running by processes that are gone, but the ` +
        `results database cannot be written to close ${abandoned.length === 1 ? 'it' : 'them'} ` +
        `(${(error as Error).message.split('\n')[0]}): shown as saved`,
    );
    return;
  }
  try {
    for (const run of abandoned) {
      if ((await closeAbandonedRun(writer, run)) !== null) {
        say(`m3: closed run ${run.run.runId} as interrupted: ${abandonedReason(run)}`);
      }
    }
  } finally {
    await writer.close();
  }
}
