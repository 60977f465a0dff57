// The `m3` command line as a library: the program, its commands, options, summary and feedback.
export { main, run, buildProgram, splitPassthrough, USAGE_EXIT } from './main';
export { processIO, cliRedactor, type CliIO } from './CliIO';
export { runTestCommand, type TestCommandInput } from './commands/test';
export { reportSummary } from './summary/reportSummary';
export { runRunsCommand, formatRuns, type RunsCommandInput } from './commands/runs';
export { runReportCommand, type ReportCommandInput } from './commands/report';
export { UsageError } from './options/UsageError';
export {
  validateTestOptions,
  positiveInteger,
  positiveSecondsToMs,
  validateRunId,
  DEFAULT_RESULTS_DB,
  type RawTestOptions,
  type TestOptions,
} from './options/testOptions';
export { buildServerGroups, serverSecrets, type ServerSelection, type ServerToken } from './options/serverGroups';
export { parseHarness, HARNESS_KINDS, type HarnessKind, type HarnessSelection } from './options/parseHarness';
export { jestChildEnv, M3_ENV } from './jest/jestChildEnv';
export { redactArgv } from './jest/redactArgv';
export { buildRunSummary, decideVerdict, tallyAttempts, type BuildRunSummaryOptions } from './summary/buildRunSummary';
export { collectRunFacts, finalAttempts, type RunFacts, type SummaryStore } from './summary/collectRunFacts';
export { formatSummary, formatRate } from './summary/formatSummary';
export type * from './summary/RunSummary';
export { compareBaseline, testKey } from './baseline/compareBaseline';
export {
  buildFeedback,
  writeFeedback,
  feedbackPath,
  FEEDBACK_SCHEMA_VERSION,
  type Feedback,
} from './feedback/writeFeedback';
