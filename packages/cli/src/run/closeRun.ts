// Makes the saved run agree with how Jest ended, so `m3 runs`, `m3 report` and feedback.json tell
// the same story as `m3 test`'s exit status (contract §22).
import type { ExecutionStore, RunProblem, RunRecord } from '@sf-m3/core';
import { interruptUnfinished } from '@sf-m3/core/store';
import type { JestExit } from '../jest/spawnJest';
import { tallyAttempts } from '../summary/buildRunSummary';
import { finalAttempts } from '../summary/collectRunFacts';

/** How Jest ended, in words. */
function describeExit(exit: JestExit): string {
  return exit.signal !== null ? `was stopped by ${exit.signal}` : `exited with status ${String(exit.code)}`;
}

/**
 * Closes the run after Jest: a run Jest left `running` (Jest killed or crashed) has its open
 * executions finished `interrupted` and its open attempts failed; a signal to the run makes it
 * `interrupted`; a Jest that failed although the run was saved `passed` (a coverage threshold, a
 * reporter) makes it `failed`. Each change is saved with a problem saying why. A test failed when
 * its last try failed or never finished (a retry that passed makes it pass).
 */
export async function closeRun(store: ExecutionStore, run: RunRecord, exit: JestExit): Promise<RunRecord> {
  const signal = exit.received ?? exit.signal;
  const problems: RunProblem[] = [];
  if (run.status === 'running') {
    const why =
      signal !== null ? `the run was stopped by ${signal}` : `Jest ${describeExit(exit)} before the run ended`;
    await interruptUnfinished(store, run.runId, () => `interrupted: ${why} while this was running`);
  }
  if (signal !== null && run.status !== 'interrupted') {
    const by = exit.received != null ? `m3 test received ${signal}` : `Jest was stopped by ${signal}`;
    problems.push({ kind: 'interrupted', testPath: null, message: `the run was interrupted: ${by}` });
  } else if (exit.code !== 0 && run.status === 'running') {
    problems.push({ kind: 'jest_exit', testPath: null, message: `Jest ${describeExit(exit)} before the run ended` });
  } else if (exit.code !== 0 && run.status === 'passed') {
    problems.push({ kind: 'jest_exit', testPath: null, message: `Jest ${describeExit(exit)} (see its output)` });
  }
  if (problems.length === 0 && run.status !== 'running') return run;
  const attempts = await store.listAttempts({ runId: run.runId });
  const tally = tallyAttempts(attempts);
  const testFailed = finalAttempts(attempts).some((a) => a.outcome === 'failed' || a.outcome === null);
  const interrupted = signal !== null || run.status === 'interrupted';
  const failed = testFailed || problems.length > 0 || run.status === 'failed';
  const { processes: _owners, ...rest } = run; // a finished run has no owning processes
  const closed: RunRecord = {
    ...rest,
    finishedAt: run.finishedAt ?? new Date().toISOString(),
    status: interrupted ? 'interrupted' : failed ? 'failed' : 'passed',
    counts: { passed: tally.passed, failed: tally.failed, skipped: tally.skipped, todo: tally.todo },
    ...(problems.length > 0 && { problems: [...(run.problems ?? []), ...problems] }),
  };
  await store.saveRun(closed);
  return closed;
}
