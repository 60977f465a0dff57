// Builds the run summary from the store, with the verdict the exit status follows.
import { mergeSurfaceEvidence, surfaceEvidenceOfRecords } from '@sf-m3/core/internal';
import type { AttemptRecord, Redactor, RunProblem } from '@sf-m3/core';
import { collectCassetteSummary, type CassetteFileReport } from '../cassettes/cassetteSummary';
import { compareBaseline } from '../baseline/compareBaseline';
import { DEFAULT_ALPHA } from '../baseline/compareRates';
import { readComparedRun } from '../baseline/readComparedRun';
import { evaluateGates } from '../gates/evaluateGates';
import { surfaceThresholdGates } from '../surface/surfaceThresholdGates';
import type { GateSettings } from '../gates/GateSettings';
import { collectAgentPassRates } from './agentPassRates';
import { collectProtocolPassRates } from './protocolPassRates';
import { collectTimeouts } from './collectTimeouts';
import { collectRunFacts, finalAttempts, type SummaryStore } from './collectRunFacts';
import { failureHeadline, fullFailureMessage } from './failureText';
import { collectJudgeBudgetUsage } from './judgeBudgetUsage';
import type {
  AttemptTally,
  BaselineComparison,
  FailedTest,
  GateResult,
  RunSummary,
  SuiteSummary,
  Verdict,
} from './RunSummary';

/** Inputs besides the store. */
export interface BuildRunSummaryOptions {
  runId: string;
  redactor: Redactor;
  /** Shown as the database location. */
  resultsDb: string;
  /** Matching tests across runs uses paths relative to this folder. */
  cwd: string;
  /** A resolved baseline run id (not `latest`), or null. */
  baselineRunId?: string | null;
  baselineNote?: string | null;
  /** Significance level of the baseline's pass-rate tests (default 0.05). */
  alpha?: number;
  /** The gates to hold the run to (`m3 test`); none when omitted. */
  gates?: GateSettings | null;
  /** The run's `--judge-max-requests` when the summary follows the `m3 test` that set it. */
  judgeMaxRequests?: number | null;
  /** The `cassette_file` reports of the run's test files (only the `m3 test` that ran them has them). */
  cassetteReports?: readonly CassetteFileReport[];
  /** Jest's exit when the summary follows `m3 test`. */
  jestExit?: { code: number | null; signal: string | null } | null;
}

/** Counts attempts by outcome (every attempt, retries included). */
export function tallyAttempts(attempts: readonly AttemptRecord[]): AttemptTally {
  const tally: AttemptTally = { total: attempts.length, passed: 0, failed: 0, skipped: 0, todo: 0 };
  for (const attempt of attempts) {
    // An attempt without an outcome never finished: it counts as failed.
    tally[attempt.outcome ?? 'failed'] += 1;
  }
  return tally;
}

/**
 * Decides the verdict and lists its reasons from what the store holds, so `m3 test` and a later
 * `m3 report` agree (Jest's exit reaches the verdict as a problem `m3 test` saved on the run).
 */
export function decideVerdict(parts: {
  status: RunSummary['status'];
  failedTests: readonly FailedTest[];
  requiredFailures: RunSummary['requiredFailures'];
  problems?: readonly RunProblem[];
  gates?: readonly GateResult[];
}): { verdict: Verdict; reasons: string[] } {
  const reasons: string[] = [];
  if (parts.failedTests.length > 0) reasons.push(`${parts.failedTests.length} test(s) failed`);
  for (const failure of parts.requiredFailures) {
    const where = failure.executionId ?? failure.caseId;
    reasons.push(
      failure.status === 'missing'
        ? `missing required evaluation ${failure.evaluator}`
        : `required evaluation did not pass: ${failure.evaluator}${where ? ` (${where})` : ''} is ${failure.status}`,
    );
  }
  for (const problem of parts.problems ?? []) reasons.push(problem.message);
  for (const gate of parts.gates ?? []) if (!gate.passed) reasons.push(`gate failed: ${gate.message}`);
  if (parts.status === 'failed' && reasons.length === 0) reasons.push('the run was recorded as failed');
  const saidInterrupted = (parts.problems ?? []).some((problem) => problem.kind === 'interrupted');
  if ((parts.status === 'interrupted' && !saidInterrupted) || parts.status === 'running') {
    reasons.push(`the run was ${parts.status === 'running' ? 'never finished' : 'interrupted'}`);
  }
  return { verdict: reasons.length === 0 ? 'passed' : 'failed', reasons };
}

/** A run's summary and the attempt records it was built from (feedback.json lists them). */
export interface SummarizedRun {
  summary: RunSummary;
  attempts: AttemptRecord[];
}

/** Reads the run (and the baseline run) once and builds its summary. */
export async function buildRunSummary(store: SummaryStore, options: BuildRunSummaryOptions): Promise<SummarizedRun> {
  const { redactor } = options;
  const facts = await collectRunFacts(store, options.runId, redactor);
  const agents = await collectAgentPassRates(store, facts.run.runId);
  const protocols = await collectProtocolPassRates(store, facts.run.runId, facts.attempts);
  // Listed once: the timeouts and the surface coverage (contract §25) both read the run's executions.
  const executions = await store.listExecutions({ runId: facts.run.runId });
  const timeouts = await collectTimeouts(store, facts.run.runId, facts.attempts, redactor, executions);
  let baseline: BaselineComparison | null = null;
  if (options.baselineRunId) {
    const [before, now] = await Promise.all([
      readComparedRun(store, options.baselineRunId, redactor),
      readComparedRun(store, facts.run.runId, redactor, facts),
    ]);
    baseline = compareBaseline(before, now, options.cwd, options.alpha ?? DEFAULT_ALPHA);
  }
  const judgeBudget = await collectJudgeBudgetUsage(
    store,
    facts.run.runId,
    options.judgeMaxRequests ?? null,
    facts.evaluations,
  );
  const coverage = mergeSurfaceEvidence(facts.run.runId, surfaceEvidenceOfRecords(executions));
  const surface = coverage.servers.length > 0 ? coverage : null;
  const gates = options.gates
    ? [
        ...evaluateGates(options.gates, facts.evaluators, baseline, options.baselineNote ?? null),
        ...surfaceThresholdGates(options.gates.surfaceThreshold, surface),
      ]
    : [];

  const suiteNames = new Map(facts.suites.map((s) => [s.suiteId, s.name]));
  const bySuite = new Map<number | null, AttemptRecord[]>();
  for (const attempt of facts.attempts) {
    const list = bySuite.get(attempt.suiteId) ?? [];
    list.push(attempt);
    bySuite.set(attempt.suiteId, list);
  }
  const suites: SuiteSummary[] = [...bySuite.entries()]
    .map(([suiteId, attempts]) => ({
      suiteId,
      name: suiteId === null ? '(no suite)' : (suiteNames.get(suiteId) ?? `suite ${suiteId}`),
      attempts: tallyAttempts(attempts),
    }))
    .sort((a, b) => a.name.localeCompare(b.name));

  const failedTests: FailedTest[] = finalAttempts(facts.attempts)
    .filter((a) => a.outcome === 'failed' || a.outcome === null)
    .map((a) => ({
      fullName: redactor.redactText(a.fullName),
      testPath: a.testPath,
      caseId: a.caseId,
      message: failureHeadline(a.failureMessage, redactor),
      failureMessage: fullFailureMessage(a.failureMessage, redactor),
    }))
    .sort((a, b) => a.fullName.localeCompare(b.fullName));

  const jestExit = options.jestExit ?? null;
  const { verdict, reasons } = decideVerdict({
    status: facts.run.status,
    failedTests,
    requiredFailures: facts.requiredFailures,
    problems: (facts.run.problems ?? []).map((p) => ({ ...p, message: redactor.redactText(p.message) })),
    gates,
  });
  const summary: RunSummary = {
    schemaVersion: 1,
    runId: facts.run.runId,
    label: facts.run.label,
    status: facts.run.status,
    startedAt: facts.run.startedAt,
    finishedAt: facts.run.finishedAt,
    resultsDb: options.resultsDb,
    suites,
    attempts: tallyAttempts(facts.attempts),
    failedTests,
    evaluations: facts.evaluators,
    agents,
    protocols,
    timeouts,
    requiredFailures: facts.requiredFailures,
    baseline,
    baselineNote: options.baselineNote ?? null,
    gates,
    surface,
    judgeBudget,
    cassettes: collectCassetteSummary(executions, options.cassetteReports ?? []),
    jestExit,
    verdict,
    reasons,
  };
  return { summary, attempts: facts.attempts };
}
