// The first thing a run's report shows: each failed test with its message, the executions it ran
// (linked) and the m3 assertions in them that did not pass, each named by its call site.
import type { AttemptRecord, EvaluationResult, ExecutionRecord } from '@sf-m3/core';
import type { FailedTest } from '../../summary/RunSummary';
import { assertionLabel, type AssertionLabel } from './assertionLabel';

/** An execution of a failed test, as the failure list links it. */
export interface FailedTestExecution {
  executionId: string;
  outcome: string | null;
}

/** An assertion in a failed test's executions that did not pass. */
export interface FailedAssertion {
  evaluationId: string;
  evaluator: string;
  status: string;
  label: AssertionLabel;
  /** The first lines of its rationale (the execution view has all of it). */
  rationale: string | null;
  executionId: string | null;
}

/** One failed test at the top of the run view. */
export interface FailedTestEntry extends FailedTest {
  executions: FailedTestExecution[];
  failedAssertions: FailedAssertion[];
}

/** Executions listed per failed test, at most (the run's execution list has every one). */
export const MAX_FAILED_TEST_EXECUTIONS = 10;
/** Assertions listed per failed test, at most. */
export const MAX_FAILED_ASSERTIONS = 10;
const MAX_RATIONALE = 400;

function firstLines(text: string | null): string | null {
  if (text === null) return null;
  const trimmed = text.trim();
  return trimmed.length > MAX_RATIONALE ? `${trimmed.slice(0, MAX_RATIONALE - 1)}…` : trimmed;
}

/**
 * Joins the summary's failed tests with the attempts that ran them, the executions linked to those
 * attempts (from the attempt's list or the execution's `attemptId`) and their evaluations that did
 * not pass. `cwd` makes call sites relative to the project.
 */
export function failedTestEntries(
  failedTests: readonly FailedTest[],
  attempts: readonly AttemptRecord[],
  executions: readonly Pick<ExecutionRecord, 'executionId' | 'attemptId' | 'outcome'>[],
  evaluations: readonly EvaluationResult[],
  cwd?: string,
): FailedTestEntry[] {
  return failedTests.map((test) => {
    const attemptIds = new Set<string>();
    const executionIds: string[] = [];
    const add = (id: string) => {
      if (!executionIds.includes(id)) executionIds.push(id);
    };
    for (const attempt of attempts) {
      if (attempt.testPath !== test.testPath || attempt.fullName !== test.fullName) continue;
      attemptIds.add(attempt.attemptId);
      attempt.executionIds.forEach(add);
    }
    for (const execution of executions) {
      if (execution.attemptId !== null && attemptIds.has(execution.attemptId)) add(execution.executionId);
    }
    const outcomeOf = new Map(executions.map((e) => [e.executionId, e.outcome]));
    const ids = new Set(executionIds);
    const failedAssertions = evaluations
      .filter((e) => e.executionId !== null && ids.has(e.executionId) && e.status !== 'passed')
      .slice(0, MAX_FAILED_ASSERTIONS)
      .map((e): FailedAssertion => ({
        evaluationId: e.evaluationId,
        evaluator: e.evaluator,
        status: e.status,
        label: assertionLabel(e, cwd),
        rationale: firstLines(e.rationale),
        executionId: e.executionId,
      }));
    return {
      ...test,
      executions: executionIds
        .slice(0, MAX_FAILED_TEST_EXECUTIONS)
        .map((executionId) => ({ executionId, outcome: outcomeOf.get(executionId) ?? null })),
      failedAssertions,
    };
  });
}
