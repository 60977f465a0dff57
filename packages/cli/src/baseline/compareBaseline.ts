// `--baseline RUN_ID|latest`: what changed since an earlier run. Tests are matched by their path
// (relative to the project) and full name, using each test's final attempt; pass rates per
// evaluator and per evaluator × suite, case, harness and model, each change judged by Fisher's
// exact test (only a significant drop is a regression); and the tools/list catalogs per
// (suite, server).
import { isAbsolute, relative } from 'node:path';
import type { AttemptRecord } from '@sf-m3/core';
import { finalAttempts, type RunFacts } from '../summary/collectRunFacts';
import type { BaselineComparison, EvaluatorDelta, TestChange } from '../summary/RunSummary';
import type { RateGroup } from './collectRateGroups';
import { compareRate, DEFAULT_ALPHA, isChange, isDrop, isRegression } from './compareRates';
import type { ToolCatalogs } from './interface/collectToolCatalogs';
import { compareCatalogs } from './interface/compareCatalogs';

/** One side of a comparison: what was read of a run. */
export interface ComparedRun {
  facts: RunFacts;
  /** Pass-rate rows keyed by `rateGroupKey`. */
  rates: Map<string, RateGroup>;
  catalogs: ToolCatalogs;
}

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

function compareTests(baseline: RunFacts, current: RunFacts, cwd: string) {
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
  const byName = (a: TestChange, b: TestChange): number => a.key.localeCompare(b.key);
  return { regressedTests: regressedTests.sort(byName), fixedTests: fixedTests.sort(byName), newTests, removedTests };
}

const sameCounts = (a: EvaluatorDelta['baseline'], b: EvaluatorDelta['baseline']): boolean =>
  a?.passed === b?.passed && a?.expected === b?.expected;

function sortKey(row: EvaluatorDelta): string {
  return [row.evaluator, row.scope, row.suiteName, row.caseId, row.harness, row.model]
    .map((v) => v ?? '')
    .join('\u0000');
}

function compareRates(baseline: ComparedRun, current: ComparedRun, alpha: number) {
  const keys = [...new Set([...baseline.rates.keys(), ...current.rates.keys()])];
  const rows = keys.map((key) => compareRate(baseline.rates.get(key), current.rates.get(key), alpha));
  rows.sort((a, b) => sortKey(a).localeCompare(sortKey(b)));
  const evaluators = rows.filter((row) => row.scope === 'evaluator');
  const wide = new Map(evaluators.map((row) => [row.evaluator, row]));
  // A group holding all of its evaluator's evaluations in both runs repeats the run-wide row.
  const groups = rows.filter((row) => {
    if (row.scope === 'evaluator' || !isChange(row)) return false;
    const all = wide.get(row.evaluator);
    return !(all && sameCounts(all.baseline, row.baseline) && sameCounts(all.current, row.current));
  });
  const changed = [...evaluators, ...groups];
  return {
    evaluators,
    groups,
    regressedEvaluators: evaluators.filter(isRegression),
    regressions: changed.filter(isRegression),
    dropsWithinNoise: changed.filter((row) => isDrop(row) && row.significance === 'within noise').length,
  };
}

/** Compares the current run with a baseline run at significance level `alpha`. */
export function compareBaseline(
  baseline: ComparedRun,
  current: ComparedRun,
  cwd: string,
  alpha: number = DEFAULT_ALPHA,
): BaselineComparison {
  return {
    baselineRunId: baseline.facts.run.runId,
    currentRunId: current.facts.run.runId,
    alpha,
    ...compareTests(baseline.facts, current.facts, cwd),
    ...compareRates(baseline, current, alpha),
    interfaceChanges: compareCatalogs(baseline.catalogs, current.catalogs),
  };
}
