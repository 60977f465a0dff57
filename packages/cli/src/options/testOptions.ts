// Validation of `m3 test` options into one typed value. Every problem is a UsageError naming the flag.
import { isAbsolute, resolve } from 'node:path';
import { isPostgresUrl, PINNABLE_REVISIONS } from '@sf-m3/core/internal';
import { parseJudgeMaxRequests } from '../judgeBudget/judgeMaxRequestsOption';
import { UsageError } from './UsageError';
import { buildServerGroups, type ServerSelection, type ServerToken } from './serverGroups';
import { parseHarness, type HarnessSelection } from './parseHarness';
import { parsePort } from '../ui/parsePort';
import type { GateConfig } from '../gates/GateSettings';
import { parseAlpha, parseMinPassRate } from '../gates/parseGateValues';
import { parseCassetteFlags, type CassetteFlags, type RawCassetteFlags } from '../cassettes/cassetteFlags';

/** Default database, relative to the working directory. */
export const DEFAULT_RESULTS_DB = '.m3/executions.sqlite';

/** What commander collected for `m3 test` (strings as typed). */
export interface RawTestOptions {
  resultsDb?: string;
  runId?: string;
  trials?: string;
  protocol?: string[];
  harness?: string[];
  envFile?: string;
  executionTimeout?: string;
  baseline?: string;
  json?: boolean;
  // reports lane: judge budget
  judgeMaxRequests?: string;
  // viewer: `--ui`, `--ui-port`
  ui?: boolean;
  uiPort?: string;
  // end viewer
  // regressions: significance and gates (contract §21)
  minPassRate?: string[];
  failOnRegression?: boolean;
  alpha?: string;
  // fuzz: `--seed N` (contract §25)
  seed?: string;
  // cassettes: `--cassettes <mode>`, `--update-cassettes`, `--ci` (contract §24)
  cassettes?: RawCassetteFlags['cassettes'];
  updateCassettes?: RawCassetteFlags['updateCassettes'];
  ci?: RawCassetteFlags['ci'];
  /** Server-group flags in command-line order. */
  serverTokens: ServerToken[];
}

/** Validated `m3 test` options. */
export interface TestOptions {
  /** Absolute path of the SQLite database. */
  resultsDb: string;
  runId: string | null;
  trials: number | null;
  /** `--protocol`: the MCP revisions every `describe.m3` suite runs once each (empty: the suites' own). */
  protocols: string[];
  harness: HarnessSelection[];
  servers: ServerSelection[];
  /** Absolute path of the `.env` file to load, if any. */
  envFile: string | null;
  executionTimeoutMs: number | null;
  /** A run id, `latest`, or null. */
  baseline: string | null;
  json: boolean;
  // reports lane: judge budget
  /** `--judge-max-requests`: judge calls the whole run may send, or null for no cap. */
  judgeMaxRequests: number | null;
  /** viewer: serve the viewer on the new run after Jest (`--ui`), on this port (0: any free one). */
  ui: { port: number } | null;
  /** regressions: `--min-pass-rate`, `--fail-on-regression` and `--alpha` as one command-line gate source. */
  gates: GateConfig;
  /** fuzz: `--seed`, the fast-check seed `describe.m3.fuzz` replays (contract §25), or null. */
  seed: number | null;
  /** cassettes: `--cassettes`, `--update-cassettes` and `--ci` (contract §24). */
  cassettes: CassetteFlags;
}

const RUN_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$/;

/** Parses a positive integer flag value. */
export function positiveInteger(flag: string, value: string): number {
  if (!/^\d+$/.test(value.trim()) || Number(value) < 1 || !Number.isSafeInteger(Number(value))) {
    throw new UsageError(flag, `must be a positive whole number, not "${value}"`);
  }
  return Number(value);
}

/** Parses a positive, finite number of seconds into milliseconds. */
export function positiveSecondsToMs(flag: string, value: string): number {
  const seconds = Number(value);
  if (value.trim() === '' || !Number.isFinite(seconds) || seconds <= 0) {
    throw new UsageError(flag, `must be a positive number of seconds, not "${value}"`);
  }
  return Math.max(1, Math.round(seconds * 1000));
}

/** Checks `--protocol` values: revisions the kit can pin (contract §23), each once. */
export function parseProtocols(values: readonly string[]): string[] {
  const known: readonly string[] = PINNABLE_REVISIONS;
  for (const value of values) {
    if (!known.includes(value)) {
      throw new UsageError(
        '--protocol',
        `"${value}" is not a revision the kit can pin; use one of ${known.join(', ')}`,
      );
    }
  }
  if (new Set(values).size !== values.length) throw new UsageError('--protocol', 'names a revision twice');
  return [...values];
}

/** Validates a run id given with `--run-id` or `--baseline` (it names a report folder too). */
export function validateRunId(flag: string, value: string): string {
  if (!RUN_ID_PATTERN.test(value)) {
    throw new UsageError(flag, 'a run id uses only letters, digits, ".", "_" or "-" (e.g. run-3f1c…)');
  }
  return value;
}

function nonEmptyPath(flag: string, value: string | undefined, cwd: string): string | null {
  if (value === undefined) return null;
  if (value.trim() === '') throw new UsageError(flag, 'must not be empty');
  return isAbsolute(value) ? value : resolve(cwd, value);
}

/**
 * The absolute database path of `--results-db` (default `.m3/executions.sqlite` under `cwd`).
 * postgres lane: a `postgres://` URL is kept as given (it selects @sf-m3/store-postgres), and
 * without `--results-db` a `M3_RESULTS_DB` URL is used, so CI can keep the password out of argv.
 */
export function resolveResultsDb(value: string | undefined, cwd: string, env: NodeJS.ProcessEnv = {}): string {
  if (value !== undefined && isPostgresUrl(value)) return value.trim();
  const fromEnv = env.M3_RESULTS_DB;
  if (value === undefined && fromEnv !== undefined && isPostgresUrl(fromEnv)) return fromEnv.trim();
  return nonEmptyPath('--results-db', value, cwd) ?? resolve(cwd, DEFAULT_RESULTS_DB);
}

/** Validates everything that can be checked without touching the disk or the database. */
export function validateTestOptions(raw: RawTestOptions, cwd: string, env: NodeJS.ProcessEnv = {}): TestOptions {
  return {
    resultsDb: resolveResultsDb(raw.resultsDb, cwd, env),
    runId: raw.runId === undefined ? null : validateRunId('--run-id', raw.runId),
    trials: raw.trials === undefined ? null : positiveInteger('--trials', raw.trials),
    protocols: parseProtocols(raw.protocol ?? []),
    harness: parseHarness(raw.harness ?? []),
    servers: buildServerGroups(raw.serverTokens),
    envFile: nonEmptyPath('--env-file', raw.envFile, cwd),
    executionTimeoutMs:
      raw.executionTimeout === undefined ? null : positiveSecondsToMs('--execution-timeout', raw.executionTimeout),
    baseline:
      raw.baseline === undefined
        ? null
        : raw.baseline === 'latest'
          ? 'latest'
          : validateRunId('--baseline', raw.baseline),
    json: raw.json === true,
    // reports lane: judge budget
    judgeMaxRequests: raw.judgeMaxRequests === undefined ? null : parseJudgeMaxRequests(raw.judgeMaxRequests),
    ui: uiOption(raw),
    // regressions
    gates: commandLineGates(raw),
    seed: raw.seed === undefined ? null : parseFuzzSeed(raw.seed),
    cassettes: parseCassetteFlags(raw),
  };
}

/** Parses `--seed`: the whole number a failing `describe.m3.fuzz` test printed (a 32-bit fast-check seed). */
export function parseFuzzSeed(value: string): number {
  const seed = Number(value);
  if (!/^-?\d+$/.test(value.trim()) || seed < -(2 ** 31) || seed > 2 ** 31 - 1) {
    throw new UsageError(
      '--seed',
      `must be the whole number a fuzz failure printed (a 32-bit integer), not "${value}"`,
    );
  }
  return seed;
}

/** regressions: the gate flags of `m3 test` (merged with the project's config later). */
export function commandLineGates(raw: Pick<RawTestOptions, 'minPassRate' | 'failOnRegression' | 'alpha'>): GateConfig {
  return {
    source: 'command line',
    minPassRate: (raw.minPassRate ?? []).map((value) => parseMinPassRate('--min-pass-rate', value, 'command line')),
    failOnRegression: raw.failOnRegression === true ? true : null,
    alpha: raw.alpha === undefined ? null : parseAlpha('--alpha', raw.alpha),
    baseline: null,
  };
}

// viewer: `--ui [--ui-port N]`
function uiOption(raw: RawTestOptions): { port: number } | null {
  if (raw.ui !== true) {
    if (raw.uiPort !== undefined) throw new UsageError('--ui-port', 'only applies with --ui');
    return null;
  }
  return { port: parsePort('--ui-port', raw.uiPort) };
}
// end viewer
