// The plain-text summary printed after Jest's output (and by `m3 report`).
import { formatCassetteLines } from '../cassettes/cassetteSummary';
import { formatComparison } from '../baseline/formatComparison';
import { caseLabel } from '../ui/shape/caseLabel';
import { formatSurfaceBlock } from '../surface/formatSurfaceBlock';
import { formatJudgeBudgetLine } from './judgeBudgetUsage';
import type { AgentGroupStats, AgentPassRates, ProtocolPassRates, RunSummary, TimedOutExecution } from './RunSummary';

/** Extra lines around the summary. */
export interface FormatOptions {
  /** Shown as `feedback  <path>` when given. */
  feedbackPath?: string | null;
}

/** `87.5%`, or `n/a` when there is no rate. */
export function formatRate(rate: number | null): string {
  return rate === null ? 'n/a' : `${(rate * 100).toFixed(1)}%`;
}

function formatInterval(interval: [number, number] | null): string {
  return interval === null ? '' : `[${formatRate(interval[0])}–${formatRate(interval[1])}]`;
}

function table(rows: string[][], indent = '  '): string[] {
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, cell.length)));
  return rows.map(
    (row) =>
      indent +
      row
        .map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i]!)))
        .join('  ')
        .trimEnd(),
  );
}

function agentRows(rows: readonly AgentGroupStats[], label: (row: AgentGroupStats) => string): string[][] {
  return rows.map((row) => [
    row.evaluator,
    label(row),
    formatRate(row.passRate).padStart(6),
    formatInterval(row.interval),
    `${row.passed}/${row.expected}`,
  ]);
}

/** Case rows printed before the rest are left to `--json` and feedback.json. */
export const MAX_PRINTED_CASE_ROWS = 30;
const MAX_LABEL = 60;

// Cut in the middle: case names share their start (the suite, the describe block) and differ at
// the end, so a cut tail would print different cases as the same 60 characters.
function shorten(label: string): string {
  if (label.length <= MAX_LABEL) return label;
  const head = 20;
  return `${label.slice(0, head)}…${label.slice(label.length - (MAX_LABEL - head - 1))}`;
}

/** The `agents` section: pass rates of agent executions per harness, per model and per case. */
function formatAgents(agents: AgentPassRates): string[] {
  const lines = ['agents      pass rates of evaluations on agent executions'];
  const cases = agents.byCase.slice(0, MAX_PRINTED_CASE_ROWS);
  const sections: Array<[string, AgentGroupStats[], (row: AgentGroupStats) => string]> = [
    ['by harness', agents.byHarness, (row) => row.harness ?? '(none)'],
    ['by model', agents.byModel, (row) => `${row.harness ?? '(none)'}:${row.model ?? '(none)'}`],
    ['by case', cases, (row) => (row.caseId === null ? '(no case)' : caseLabel(row.caseId))],
  ];
  for (const [title, rows, label] of sections) {
    lines.push(`  ${title}`);
    lines.push(
      ...table(
        agentRows(rows, (row) => shorten(label(row))),
        '    ',
      ),
    );
  }
  const hidden = agents.byCase.length - cases.length;
  if (hidden > 0) lines.push(`    … ${hidden} more case row(s) in feedback.json (or --json)`);
  return lines;
}

/** The `protocols` section: per revision of an era matrix, its tests and evaluation pass rates. */
function formatProtocols(protocols: ProtocolPassRates): string[] {
  const lines = ['protocols   tests and evaluation pass rates per MCP revision'];
  for (const row of protocols.revisions) {
    const tests = row.tests === 0 ? 'no era-matrix test' : `${row.testsPassed}/${row.tests} test(s) passed`;
    lines.push(`  ${row.revision}  ${tests}`);
    lines.push(
      ...table(
        row.evaluators.map((e) => [
          e.evaluator,
          formatRate(e.passRate).padStart(6),
          formatInterval(e.interval),
          `${e.passed}/${e.expected}`,
        ]),
        '    ',
      ),
    );
  }
  return lines;
}

/** Timed-out execution rows printed before the rest are left to `--json` and feedback.json. */
export const MAX_PRINTED_TIMEOUT_ROWS = 20;

const MAX_TEST_NAME = 120;

function timeoutLines(row: TimedOutExecution): string[] {
  const where = row.testName ?? row.caseId ?? row.executionId;
  const name = where.length > MAX_TEST_NAME ? `${where.slice(0, MAX_TEST_NAME - 1)}…` : where;
  const agent =
    row.harness !== null
      ? `${row.harness}:${row.model ?? '(none)'}`
      : `direct${row.server === null ? '' : ` ${row.server}`}`;
  const ms = (value: number | null) => (value === null ? 'unknown' : `${value} ms`);
  return [
    `  ⏱ ${name}`,
    `      ${agent}  stage=${row.stage ?? 'unknown'}  operation=${row.operation ?? 'unknown'}  ` +
      `elapsed ${ms(row.elapsedMs)} of ${ms(row.timeoutMs)}`,
  ];
}

/** The `timeouts` section: every execution that passed its deadline, and where it was then. */
function formatTimeouts(timeouts: readonly TimedOutExecution[]): string[] {
  const lines = [`timeouts    ${timeouts.length} execution(s) passed their deadline`];
  const shown = timeouts.slice(0, MAX_PRINTED_TIMEOUT_ROWS);
  for (const row of shown) lines.push(...timeoutLines(row));
  const hidden = timeouts.length - shown.length;
  if (hidden > 0) lines.push(`  … ${hidden} more timed-out execution(s) in feedback.json (or --json)`);
  return lines;
}

/** Renders the summary as the lines `m3 test` and `m3 report` print. */
export function formatSummary(summary: RunSummary, options: FormatOptions = {}): string {
  const lines: string[] = [];
  lines.push(`m3 run ${summary.runId}  (saved to ${summary.resultsDb})`);
  lines.push(`suites      ${summary.suites.length === 0 ? 'none' : summary.suites.map((s) => s.name).join(', ')}`);
  const a = summary.attempts;
  lines.push(`attempts    ${a.passed} passed, ${a.failed} failed, ${a.skipped} skipped, ${a.todo} todo`);
  if (summary.cassettes) lines.push(...formatCassetteLines(summary.cassettes));
  if (summary.failedTests.length > 0) {
    lines.push('failed tests');
    for (const test of summary.failedTests) {
      lines.push(`  ✕ ${test.fullName}${test.message ? ` — ${test.message}` : ''}`);
    }
  }
  if (summary.timeouts.length > 0) lines.push(...formatTimeouts(summary.timeouts));
  if (summary.evaluations.length === 0) {
    lines.push('evaluations none');
  } else {
    lines.push('evaluations');
    lines.push(
      ...table(
        summary.evaluations.map((e) => [
          e.evaluator,
          formatRate(e.passRate).padStart(6),
          formatInterval(e.interval),
          `${e.passed}/${e.expected}`,
        ]),
      ),
    );
  }
  if (summary.judgeBudget !== null) lines.push(formatJudgeBudgetLine(summary.judgeBudget));
  if (summary.agents !== null) lines.push(...formatAgents(summary.agents));
  if (summary.protocols !== null) lines.push(...formatProtocols(summary.protocols));
  if (summary.requiredFailures.length === 0) {
    lines.push('required failures  none');
  } else {
    lines.push('required failures');
    for (const failure of summary.requiredFailures) {
      const where = failure.executionId ?? failure.caseId;
      const why = failure.rationale ? ` — ${failure.rationale}` : '';
      lines.push(`  ✕ ${failure.evaluator} ${failure.status}${where ? ` (${where})` : ''}${why}`);
    }
  }
  const b = summary.baseline;
  if (b !== null) {
    lines.push(...formatComparison(b));
  } else if (summary.baselineNote) {
    lines.push(`baseline    ${summary.baselineNote}`);
  }
  lines.push(...formatSurfaceBlock(summary.surface));
  if (summary.gates.length > 0) {
    lines.push('gates');
    for (const gate of summary.gates) lines.push(`  ${gate.passed ? '✓' : '✕'} ${gate.message}`);
  }
  if (options.feedbackPath) lines.push(`feedback    ${options.feedbackPath}`);
  lines.push(`verdict     ${summary.verdict}${summary.reasons.length > 0 ? `: ${summary.reasons.join('; ')}` : ''}`);
  return `${lines.join('\n')}\n`;
}
