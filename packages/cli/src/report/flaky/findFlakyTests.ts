// `m3 report --flaky [--runs K]`: the tests whose final attempt passed in some of the last K runs
// and failed in others, with their pass counts, so a team can see which cases are unstable. Tests
// are matched across runs as `--baseline` matches them (path relative to the project › full name).
import type { AttemptRecord, Redactor, RunRecord } from '@sf-m3/core';
import { testKey } from '../../baseline/compareBaseline';
import { finalAttempts, type SummaryStore } from '../../summary/collectRunFacts';

/** Runs read when `--runs` is not given. */
export const DEFAULT_FLAKY_RUNS = 10;

/** What a test's final attempt did in one run; `null` when the run did not run it (or skipped it). */
export type FlakyOutcome = 'passed' | 'failed' | null;

/** A test that both passed and failed across the runs read. */
export interface FlakyTest {
  key: string;
  fullName: string;
  caseId: string | null;
  /** Runs in which the test passed or failed (skipped and todo do not count). */
  runs: number;
  passed: number;
  failed: number;
  /** One per run read, newest first, aligned with `FlakyReport.runIds`. */
  outcomes: FlakyOutcome[];
}

/** The flake view of the last runs. */
export interface FlakyReport {
  schemaVersion: 1;
  /** Runs read, newest first (runs still in progress are left out). */
  runIds: string[];
  /** Tests that passed or failed in at least one of them. */
  testsSeen: number;
  /** Most unstable first: the closest to half passing, then by name. */
  tests: FlakyTest[];
}

function outcomeOf(attempt: AttemptRecord): FlakyOutcome {
  if (attempt.outcome === 'passed') return 'passed';
  if (attempt.outcome === 'skipped' || attempt.outcome === 'todo') return null;
  // Failed, or never finished (its worker died): a failure, as the summary counts it.
  return 'failed';
}

/** Reads the last `runs` finished runs and finds the tests whose final attempts differ between them. */
export async function findFlakyTests(
  store: Pick<SummaryStore, 'listRuns' | 'listAttempts'>,
  options: { runs: number; cwd: string; redactor: Redactor },
): Promise<FlakyReport> {
  // A run still in progress has partial attempts; read a few more so K finished runs remain.
  const listed: RunRecord[] = await store.listRuns({ limit: options.runs + 20 });
  const runs = listed.filter((run) => run.status !== 'running').slice(0, options.runs);
  const seen = new Map<string, { fullName: string; caseId: string | null; outcomes: FlakyOutcome[] }>();
  for (const [index, run] of runs.entries()) {
    for (const attempt of finalAttempts(await store.listAttempts({ runId: run.runId }))) {
      const outcome = outcomeOf(attempt);
      if (outcome === null) continue;
      const key = testKey(attempt, options.cwd);
      let test = seen.get(key);
      if (!test) {
        test = { fullName: attempt.fullName, caseId: attempt.caseId, outcomes: runs.map(() => null) };
        seen.set(key, test);
      }
      test.outcomes[index] = outcome;
    }
  }
  const tests: FlakyTest[] = [];
  for (const [key, test] of seen) {
    const passed = test.outcomes.filter((o) => o === 'passed').length;
    const failed = test.outcomes.filter((o) => o === 'failed').length;
    if (passed === 0 || failed === 0) continue;
    tests.push({
      key: options.redactor.redactText(key),
      fullName: options.redactor.redactText(test.fullName),
      caseId: test.caseId === null ? null : options.redactor.redactText(test.caseId),
      runs: passed + failed,
      passed,
      failed,
      outcomes: test.outcomes,
    });
  }
  const instability = (t: FlakyTest): number => Math.abs(t.passed / t.runs - 0.5);
  tests.sort((a, b) => instability(a) - instability(b) || a.key.localeCompare(b.key));
  return { schemaVersion: 1, runIds: runs.map((r) => r.runId), testsSeen: seen.size, tests };
}
