// Saves failed gates on the run as problems, so `m3 runs`, `m3 report` and feedback.json agree with
// the exit status `m3 test` gave (contract §22): the run becomes `failed` and says which gate failed.
import type { ExecutionStore, RunProblem } from '@sf-m3/core';
import type { GateResult } from '../summary/RunSummary';

/** Marks the run failed with one `gate` problem per failed gate; does nothing when all passed. */
export async function saveGateProblems(
  store: Pick<ExecutionStore, 'getRun' | 'saveRun'>,
  runId: string,
  gates: readonly GateResult[],
): Promise<void> {
  const failed = gates.filter((gate) => !gate.passed);
  if (failed.length === 0) return;
  const run = await store.getRun(runId);
  if (run === null) return;
  const problems: RunProblem[] = failed.map((gate) => ({
    kind: 'gate',
    testPath: null,
    message: `gate failed: ${gate.message}`,
  }));
  await store.saveRun({
    ...run,
    status: run.status === 'interrupted' ? 'interrupted' : 'failed',
    problems: [...(run.problems ?? []), ...problems],
  });
}
