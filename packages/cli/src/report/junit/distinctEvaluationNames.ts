// JUnit property names of a test case's evaluations, distinct within the case: ten
// `toHaveToolCall` checks are not ten `m3.evaluation.m3.expect.toHaveToolCall` properties that a
// CI dashboard collapses into one. A repeated evaluator gets its call site (`@tests/git.test.ts:42`),
// and, when that still repeats (an assertion in a loop, no site recorded), a `#n` counter.
import type { EvaluationResult } from '@sf-m3/core';
import { assertionLabel } from '../../ui/shape/assertionLabel';

/** The property name of each evaluation, in order; `cwd` makes call sites relative to the project. */
export function distinctEvaluationNames(evaluations: readonly EvaluationResult[], cwd: string): string[] {
  const base = evaluations.map((e) => `m3.evaluation.${e.evaluator}`);
  const count = (names: readonly string[]) => {
    const n = new Map<string, number>();
    for (const name of names) n.set(name, (n.get(name) ?? 0) + 1);
    return n;
  };
  const baseCounts = count(base);
  const sited = base.map((name, i) => {
    if (baseCounts.get(name) === 1) return name;
    const site = assertionLabel(evaluations[i]!, cwd).site;
    return site === null ? name : `${name}@${site}`;
  });
  const sitedCounts = count(sited);
  const seen = new Map<string, number>();
  return sited.map((name) => {
    if (sitedCounts.get(name) === 1) return name;
    const k = (seen.get(name) ?? 0) + 1;
    seen.set(name, k);
    return `${name}#${k}`;
  });
}
