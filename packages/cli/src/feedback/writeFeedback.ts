// `.m3/reports/<run-id>/feedback.json`: the run, its suites, attempts, evaluation statistics,
// required failures, timed-out executions and the baseline comparison, for people and tools that
// read results later.
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AttemptRecord, Redactor } from '@sf-m3/core';
import { roundSummaryRates } from '../summary/roundRates';
import type { RunSummary } from '../summary/RunSummary';

/** Version of the feedback.json layout. */
export const FEEDBACK_SCHEMA_VERSION = 1;

/** The feedback document. */
export interface Feedback {
  schemaVersion: typeof FEEDBACK_SCHEMA_VERSION;
  runId: string;
  run: { label: string | null; status: string; startedAt: string; finishedAt: string | null; resultsDb: string };
  suites: RunSummary['suites'];
  attempts: AttemptRecord[];
  attemptCounts: RunSummary['attempts'];
  failedTests: RunSummary['failedTests'];
  evaluationStats: Record<string, Omit<RunSummary['evaluations'][number], 'evaluator'>>;
  /** Pass rates per harness, model and case of the run's agent executions; `null` without any. */
  agentStats: RunSummary['agents'];
  /** Executions that ended `timed_out`, each with its deadline's stage, operation, elapsed and timeout ms. */
  timeouts: RunSummary['timeouts'];
  requiredFailures: RunSummary['requiredFailures'];
  comparison: RunSummary['baseline'];
  /** Every gate the run was held to and how it went (empty without gates). */
  gates: RunSummary['gates'];
  /** The judge budget's use (`--judge-max-requests`); `null` without a budget. */
  judgeBudget: RunSummary['judgeBudget'];
  /** Surface coverage per server (contract §25); `null` when no execution reached a server. */
  surface: RunSummary['surface'];
  summary: { verdict: RunSummary['verdict']; reasons: string[]; jestExit: RunSummary['jestExit'] };
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.keys(value as Record<string, unknown>)
      .sort()
      .map((key) => [key, sortKeys((value as Record<string, unknown>)[key])]),
  );
}

/** Builds the redacted feedback document of a summary and its attempt rows, rates rounded. */
export function buildFeedback(run: RunSummary, attempts: readonly AttemptRecord[], redactor: Redactor): Feedback {
  const summary = roundSummaryRates(run);
  const feedback: Feedback = {
    schemaVersion: FEEDBACK_SCHEMA_VERSION,
    runId: summary.runId,
    run: {
      label: summary.label,
      status: summary.status,
      startedAt: summary.startedAt,
      finishedAt: summary.finishedAt,
      resultsDb: summary.resultsDb,
    },
    suites: summary.suites,
    attempts: [...attempts].sort(
      (a, b) => a.startedAt.localeCompare(b.startedAt) || a.attemptId.localeCompare(b.attemptId),
    ),
    attemptCounts: summary.attempts,
    failedTests: summary.failedTests,
    evaluationStats: Object.fromEntries(summary.evaluations.map(({ evaluator, ...stats }) => [evaluator, stats])),
    agentStats: summary.agents,
    timeouts: summary.timeouts,
    requiredFailures: summary.requiredFailures,
    comparison: summary.baseline,
    gates: summary.gates,
    judgeBudget: summary.judgeBudget,
    surface: summary.surface,
    summary: { verdict: summary.verdict, reasons: summary.reasons, jestExit: summary.jestExit },
  };
  return redactor.redactJson(feedback);
}

/** Where a run's feedback.json lives under `projectRoot`. */
export function feedbackPath(projectRoot: string, runId: string): string {
  return join(projectRoot, '.m3', 'reports', runId, 'feedback.json');
}

/**
 * Writes feedback.json atomically (temp file, then rename): sorted keys, 2-space indent, trailing
 * newline. Returns the path written.
 */
export function writeFeedback(projectRoot: string, feedback: Feedback): string {
  const target = feedbackPath(projectRoot, feedback.runId);
  const folder = join(projectRoot, '.m3', 'reports', feedback.runId);
  mkdirSync(folder, { recursive: true });
  const temp = join(folder, '.feedback.json.tmp');
  writeFileSync(temp, `${JSON.stringify(sortKeys(feedback), null, 2)}\n`, 'utf8');
  renameSync(temp, target);
  return target;
}
