// The options `m3 report` takes for CI outputs: `--format junit|markdown [--output FILE]` and
// `--flaky [--runs K]`, checked before the database is opened; every problem names its flag.
import { isAbsolute, resolve } from 'node:path';
import { positiveInteger } from '../options/testOptions';
import { UsageError } from '../options/UsageError';
import { DEFAULT_FLAKY_RUNS } from './flaky/findFlakyTests';

/** Formats `--format` accepts. */
export const REPORT_FORMATS = ['junit', 'markdown'] as const;
/** One of {@link REPORT_FORMATS}. */
export type ReportFormat = (typeof REPORT_FORMATS)[number];

/** What commander collected (strings as typed). */
export interface RawReportOutputOptions {
  runId?: string;
  baseline?: string;
  json?: boolean;
  format?: string;
  output?: string;
  flaky?: boolean;
  runs?: string;
}

/** Checked output options of `m3 report`. */
export interface ReportOutputOptions {
  format: ReportFormat | null;
  /** Absolute path of `--output`, or null for stdout. */
  output: string | null;
  /** `--runs` when `--flaky` is given, else null. */
  flakyRuns: number | null;
  json: boolean;
}

/** Checks the combination of flags; throws `UsageError` naming the flag and the fix. */
export function validateReportOutput(raw: RawReportOutputOptions, cwd: string): ReportOutputOptions {
  let format: ReportFormat | null = null;
  if (raw.format !== undefined) {
    if (!(REPORT_FORMATS as readonly string[]).includes(raw.format)) {
      throw new UsageError('--format', `must be junit or markdown, not "${raw.format}"`);
    }
    format = raw.format as ReportFormat;
  }
  if (format !== null && raw.json === true) {
    throw new UsageError('--json', '--json and --format are two different outputs: give one of them');
  }
  const flaky = raw.flaky === true;
  if (raw.runs !== undefined && !flaky) throw new UsageError('--runs', 'only applies to --flaky: add --flaky');
  let flakyRuns: number | null = null;
  if (flaky) {
    flakyRuns = raw.runs === undefined ? DEFAULT_FLAKY_RUNS : positiveInteger('--runs', raw.runs);
    if (flakyRuns < 2)
      throw new UsageError('--runs', 'a test can only differ across 2 or more runs: give --runs 2 or more');
    if (format === 'junit')
      throw new UsageError('--format', '--flaky writes text, --json or --format markdown, not junit');
    if (raw.runId !== undefined) throw new UsageError('RUN_ID', '--flaky reads the last --runs runs: leave RUN_ID out');
    if (raw.baseline !== undefined) throw new UsageError('--baseline', 'does not apply to --flaky');
  }
  let output: string | null = null;
  if (raw.output !== undefined) {
    if (format === null && !flaky) {
      throw new UsageError('--output', 'writes a --format junit|markdown report (or --flaky): add --format');
    }
    if (raw.output.trim() === '') throw new UsageError('--output', 'must name a file');
    output = isAbsolute(raw.output) ? raw.output : resolve(cwd, raw.output);
  }
  return { format, output, flakyRuns, json: raw.json === true };
}
