// Upstream behaviour: `--trials N` only expands `test.m3` tests, so a run where none ran gets one
// warning instead of silently running every test once.
import type { AttemptRecord } from '@sf-m3/core';

/**
 * The warning `m3 test --trials N` (N > 1) prints when no `test.m3` test ran, or `null`. A `test.m3`
 * expansion is recognised by the title suffix contract §11 gives it, `[trial k/N]`, which every
 * expansion has once the CLI sets N > 1 trials; skipped and todo attempts did not run.
 */
export function trialsWithoutEffect(trials: number | null, attempts: readonly AttemptRecord[]): string | null {
  if (trials === null || trials < 2) return null;
  const trialSuffix = new RegExp(`\\[trial \\d+/${trials}\\]$`);
  const expanded = attempts.some(
    (attempt) => attempt.outcome !== 'skipped' && attempt.outcome !== 'todo' && trialSuffix.test(attempt.fullName),
  );
  return expanded ? null : `--trials ${trials} had no effect: no test.m3 test ran`;
}
