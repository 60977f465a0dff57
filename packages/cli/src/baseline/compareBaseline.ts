// `--baseline RUN_ID|latest`: what regressed since an earlier run. Tests are matched by their
// path (relative to the project) and full name, using each test's final attempt; evaluators by name.
import { isAbsolute, relative } from 'node:path';
import type { AttemptRecord } from '@sf-m3/core';
import { finalAttempts, type RunFacts } from '../summary/collectRunFacts';
import type { BaselineComparison, EvaluatorDelta, TestChange } from '../summary/RunSummary';

/** Pass rates closer than this are equal (floating-point noise, not a regression). */
const RATE_EPSILON = 1e-9;

/** The key a test is matched by across runs: `<path relative to cwd> › <full name>`. */
export function testKey(attempt: Pick<AttemptRecord, 'testPath' | 'fullName'>, cwd: string): string {
  const path = isAbsolute(attempt.testPath) ? relative(cwd, attempt.testPath) : attempt.testPath;
  return `${path.split('\\').join('/')} › ${attempt.fullName}`;
}

function byKey(attempts: readonly AttemptRecord[], cwd: string): Map<string, AttemptRecord> {
  return new Map(finalAttempts(attempts).map((a) => [testKey(a, cwd), a]));
}

function change(key: string, before: AttemptRecord, after: AttemptRecord): TestChange {
  return {
    key,
    fullName: after.fullName,
    caseId: after.caseId ?? before.caseId,
    before: before.outcome ?? 'failed',
    after: after.outcome ?? 'failed',
  };
}

/** Compares the current run with a baseline run. */
export function compareBaseline(baseline: RunFacts, current: RunFacts, cwd: string): BaselineComparison {
  const before = byKey(baseline.attempts, cwd);
  const after = byKey(current.attempts, cwd);
  const regressedTests: TestChange[] = [];
  const fixedTests: TestChange[] = [];
  let newTests = 0;
  for (const [key, now] of after) {
    const then = before.get(key);
    if (!then) {
      newTests += 1;
      continue;
    }
    if (then.outcome === 'passed' && now.outcome === 'failed') regressedTests.push(change(key, then, now));
    if (then.outcome === 'failed' && now.outcome === 'passed') fixedTests.push(change(key, then, now));
  }
  const removedTests = [...before.keys()].filter((key) => !after.has(key)).length;

  const baseRates = new Map(baseline.evaluators.map((e) => [e.evaluator, e.passRate]));
  const currentRates = new Map(current.evaluators.map((e) => [e.evaluator, e.passRate]));
  const names = [...new Set([...baseRates.keys(), ...currentRates.keys()])].sort();
  const evaluators: EvaluatorDelta[] = names.map((evaluator) => {
    const baselinePassRate = baseRates.get(evaluator) ?? null;
    const currentPassRate = currentRates.get(evaluator) ?? null;
    const delta = baselinePassRate !== null && currentPassRate !== null ? currentPassRate - baselinePassRate : null;
    return { evaluator, baselinePassRate, currentPassRate, delta };
  });
  const regressedEvaluators = evaluators.filter((e) => e.delta !== null && e.delta < -RATE_EPSILON);

  const byName = (a: TestChange, b: TestChange): number => a.key.localeCompare(b.key);
  return {
    baselineRunId: baseline.run.runId,
    currentRunId: current.run.runId,
    regressedTests: regressedTests.sort(byName),
    fixedTests: fixedTests.sort(byName),
    newTests,
    removedTests,
    regressedEvaluators,
    evaluators,
  };
}
