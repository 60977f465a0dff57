// The summary `m3` prints after a run, writes into feedback.json and returns with `--json`.
import type { CassetteSummary } from '../cassettes/cassetteSummary';
import type { AttemptOutcome, EvaluationStatus, RunStatus, RunSurfaceCoverage, SurfaceMeasure } from '@sf-m3/core';

/** Attempts of a run (or a suite) by Jest outcome. */
export interface AttemptTally {
  total: number;
  passed: number;
  failed: number;
  skipped: number;
  todo: number;
}

/** One suite of the run with its attempts. */
export interface SuiteSummary {
  suiteId: number | null;
  name: string;
  attempts: AttemptTally;
}

/** A test whose final attempt failed. */
export interface FailedTest {
  fullName: string;
  testPath: string;
  caseId: string | null;
  /** The line of the redacted failure message that says what went wrong (what the terminal prints). */
  message: string | null;
  /** The whole redacted failure message without colours, at most 8 KiB. */
  failureMessage: string | null;
}

/** Pass-rate figures of one evaluator over the run. */
export interface EvaluatorStats {
  evaluator: string;
  passRate: number | null;
  /** 95% Wilson interval of the pass rate. */
  interval: [number, number] | null;
  passed: number;
  expected: number;
  evaluationCount: number;
  missingRequired: number;
  pendingRequired: number;
  statusCounts: Record<EvaluationStatus, number>;
  averageScore: number | null;
}

/**
 * Pass-rate figures of one evaluator over a group of agent executions (one harness, one
 * harness and model, or one case); the fields not grouped by are `null`.
 */
export interface AgentGroupStats {
  evaluator: string;
  harness: string | null;
  model: string | null;
  caseId: string | null;
  passRate: number | null;
  /** 95% Wilson interval of the pass rate. */
  interval: [number, number] | null;
  passed: number;
  expected: number;
  evaluationCount: number;
  executionCount: number;
  caseCount: number;
  /** Cases whose every trial passed (pass^k). */
  casesAllPassed: number;
  /** Cases with at least one passing trial (pass@k). */
  casesAnyPassed: number;
  statusCounts: Record<EvaluationStatus, number>;
}

/** One MCP revision's tests and evaluation pass rates in a run (contract §23). */
export interface ProtocolRevisionStats {
  revision: string;
  /** Era-matrix tests that ran under this revision (last attempt of each; skipped and todo left out). */
  tests: number;
  testsPassed: number;
  testsFailed: number;
  /** Evaluations of executions labelled `metadata.protocolVersion` = this revision, per evaluator. */
  evaluators: Array<{
    evaluator: string;
    passRate: number | null;
    interval: [number, number] | null;
    passed: number;
    expected: number;
  }>;
}

/** Per-revision results of a run with an era matrix. */
export interface ProtocolPassRates {
  revisions: ProtocolRevisionStats[];
}

/** Pass rates of the run's agent executions (those labelled with a harness). */
export interface AgentPassRates {
  /** Per evaluator and harness. */
  byHarness: AgentGroupStats[];
  /** Per evaluator, harness and model. */
  byModel: AgentGroupStats[];
  /** Per evaluator and case (every harness, model and trial of the case together). */
  byCase: AgentGroupStats[];
}

/** A required evaluation whose latest verdict is not `passed`, or that never ran. */
export interface RequiredFailure {
  evaluator: string;
  status: EvaluationStatus | 'missing';
  executionId: string | null;
  caseId: string | null;
  evaluationId: string | null;
  /** The rationale's line that says what went wrong, redacted. */
  rationale: string | null;
}

/** An execution of the run that ended `timed_out`, and where its deadline found it. */
export interface TimedOutExecution {
  executionId: string;
  kind: 'direct' | 'agent';
  /** Full name of the test that ran it (redacted), when its attempt is known. */
  testName: string | null;
  caseId: string | null;
  server: string | null;
  /** Agent executions only. */
  harness: string | null;
  model: string | null;
  trial: string | null;
  /** The deadline diagnostic's code (`execution_timeout` for agents, `deadline_exceeded` for direct). */
  code: string | null;
  /** Where the execution was (e.g. `waiting_for_harness_response`); `null` without a diagnostic. */
  stage: string | null;
  /** What it was doing there (e.g. `session/prompt`). */
  operation: string | null;
  elapsedMs: number | null;
  timeoutMs: number | null;
  /** The diagnostic's message, redacted: the line that says what went wrong. */
  message: string | null;
}

/** A test that passed in the baseline and failed now (or the reverse, for `fixed`). */
export interface TestChange {
  key: string;
  fullName: string;
  caseId: string | null;
  before: AttemptOutcome;
  after: AttemptOutcome;
}

/** What a pass-rate change is, once Fisher's exact test has looked at its counts. */
export type Significance = 'significant' | 'within noise' | 'not comparable';

/** Pass-rate counts of one side of a comparison. */
export interface RateCounts {
  passRate: number | null;
  passed: number;
  expected: number;
}

/**
 * An evaluator's pass rate in both runs, over the whole run (`scope: 'evaluator'`) or one suite,
 * case, harness or harness and model of it (the fields not grouped by are `null`).
 */
export interface EvaluatorDelta {
  evaluator: string;
  scope: 'evaluator' | 'suite' | 'case' | 'harness' | 'model';
  suiteName: string | null;
  caseId: string | null;
  harness: string | null;
  model: string | null;
  baselinePassRate: number | null;
  currentPassRate: number | null;
  /** current − baseline, when both are known. */
  delta: number | null;
  baseline: RateCounts | null;
  current: RateCounts | null;
  /** Two-sided Fisher exact p-value of passed/not passed in the two runs; `null` when not comparable. */
  pValue: number | null;
  /** `significant` when `pValue < alpha`; `not comparable` when a side has no expected evaluations. */
  significance: Significance;
}

/** One value that differs between two tool definitions, at a JSON path of the tool (`$.inputSchema.properties.zone.type`). */
export interface DefinitionDifference {
  path: string;
  change: 'added' | 'removed' | 'changed';
  /** The value before (`null` when added). */
  before: unknown;
  /** The value after (`null` when removed). */
  after: unknown;
}

/** A change in the tool catalog one server listed in one suite (`tools/list`). */
export interface ToolChange {
  suiteName: string | null;
  server: string;
  tool: string;
  change: 'added' | 'removed' | 'changed';
  /** Top-level fields that differ for a changed tool: `inputSchema`, `outputSchema`, `description`, `annotations`, `title`… */
  fields: string[];
  differences: DefinitionDifference[];
  /**
   * For an added tool whose definition equals a removed tool's (name aside), and the reverse: the
   * other name — most likely a rename.
   */
  renamed: string | null;
}

/** A (suite, server) whose `tools/list` was seen in one run only: nothing can be said about its tools. */
export interface UncomparableCatalog {
  suiteName: string | null;
  server: string;
  seenIn: 'baseline' | 'current';
}

/** Differences between the tool catalogs the two runs observed. */
export interface InterfaceChanges {
  /** (suite, server) pairs whose catalogs were compared. */
  compared: number;
  changes: ToolChange[];
  notComparable: UncomparableCatalog[];
}

/** What changed since the baseline run. */
export interface BaselineComparison {
  baselineRunId: string;
  currentRunId: string;
  /** Significance level of the pass-rate tests (`--alpha`, default 0.05). */
  alpha: number;
  /** Passed in the baseline, failed now. */
  regressedTests: TestChange[];
  /** Failed in the baseline, passed now. */
  fixedTests: TestChange[];
  newTests: number;
  removedTests: number;
  /** Evaluators whose pass rate fell significantly (run-wide). */
  regressedEvaluators: EvaluatorDelta[];
  /** Every evaluator seen in either run (run-wide). */
  evaluators: EvaluatorDelta[];
  /**
   * Rates that changed per evaluator × suite, case, harness and model (a group whose counts equal
   * its evaluator's run-wide counts in both runs is left out as a repeat).
   */
  groups: EvaluatorDelta[];
  /** Every significant drop, run-wide and per group: the regressions. */
  regressions: EvaluatorDelta[];
  /** Drops (run-wide and per group) that Fisher's test cannot tell from noise. */
  dropsWithinNoise: number;
  interfaceChanges: InterfaceChanges;
}

/** One gate and how the run went against it. */
export interface GateResult {
  kind: 'min_pass_rate' | 'no_regression' | 'surface_threshold';
  /** `min_pass_rate`: the evaluator the gate held (each evaluator gets its own row). */
  evaluator: string | null;
  /** `min_pass_rate`: the required rate; `surface_threshold`: the required percentage (0–100). */
  threshold: number | null;
  /**
   * `min_pass_rate`: the evaluator's pass rate (null when it had nothing expected);
   * `surface_threshold`: the covered percentage (null when the server was never reached).
   */
  actual: number | null;
  /** `min_pass_rate`, `surface_threshold`: threshold − actual when it failed (how far below), else 0. */
  gap: number | null;
  /** `surface_threshold` (contract §25): the server, the measure and what it left uncovered. */
  surface?: { server: string; measure: SurfaceMeasure; uncovered: string[] };
  /** `no_regression`: the significant drops. */
  regressions: number | null;
  /** Where the gate came from: `command line`, `jest config` or `package.json`. */
  source: string;
  passed: boolean;
  /** One sentence saying what was held and how it went. */
  message: string;
}

/** How much of the run's judge budget (`m3 test --judge-max-requests N`) was used. */
export interface JudgeBudgetUsage {
  /** The cap; `null` when the summary does not know it (`m3 report` of an earlier run). */
  limit: number | null;
  /** Judge requests the store's counter granted; `null` when the store cannot count them. */
  used: number | null;
  /** Judge evaluations the spent budget refused (`judge_budget_exhausted`, never sent). */
  refused: number;
}

/** Overall answer of a run; the exit status follows it (passed → 0, failed → 1). */
export type Verdict = 'passed' | 'failed';

/** Everything `m3` reports about one run. */
export interface RunSummary {
  schemaVersion: 1;
  runId: string;
  label: string | null;
  status: RunStatus;
  startedAt: string;
  finishedAt: string | null;
  /** Where the run is saved (as given, or the default). */
  resultsDb: string;
  suites: SuiteSummary[];
  attempts: AttemptTally;
  failedTests: FailedTest[];
  evaluations: EvaluatorStats[];
  /** Per-harness, per-model and per-case pass rates; `null` when the run has no agent executions. */
  agents: AgentPassRates | null;
  /**
   * Per MCP revision of an era matrix (contract §23): tests and evaluation pass rates; `null` when
   * no test ran under `describe.m3(name, { protocols })` and no execution was labelled with a revision.
   */
  protocols: ProtocolPassRates | null;
  /** Executions that ended `timed_out`, with the stage and operation their deadline named. */
  timeouts: TimedOutExecution[];
  requiredFailures: RequiredFailure[];
  baseline: BaselineComparison | null;
  /** Set when `--baseline latest` found no earlier run. */
  baselineNote: string | null;
  /** The gates the run was held to (`--min-pass-rate`, `--fail-on-regression`, config) and how each went. */
  gates: GateResult[];
  /** Surface coverage per server (contract §25); `null` when no execution of the run reached a server. */
  surface: RunSurfaceCoverage | null;
  /** The judge budget's use: when `m3 test` set one, or the store counted or refused judge requests; else `null`. */
  judgeBudget: JudgeBudgetUsage | null;
  /**
   * Cassettes (contract §24): executions replayed, recorded and mixed, and obsolete entries (known
   * only to the `m3 test` that ran them); `null` (or absent) when all are 0.
   */
  cassettes?: CassetteSummary | null;
  /** Jest's exit, when this summary follows a `m3 test` run. */
  jestExit: { code: number | null; signal: string | null } | null;
  verdict: Verdict;
  /** Why the verdict is `failed` (empty when passed). */
  reasons: string[];
}
