import { newId } from '@sf-m3/core/internal';

/** Environment variable carrying the run id from global setup (or the `m3` CLI) to every worker. */
export const RUN_ID_ENV = 'M3_RUN_ID';
/** Environment variable naming the run-scoped folder workers report required failures into. */
export const RUN_STATE_DIR_ENV = 'M3_RUN_STATE_DIR';
/** A folder the `m3` CLI made for the run state, removed by the CLI after Jest however Jest ends. */
export const RUN_STATE_ROOT_ENV = 'M3_RUN_STATE_ROOT';
/** The pid of the `m3 test` that started Jest (it closes the run if Jest dies), set by the `m3` CLI. */
export const CLI_PID_ENV = 'M3_CLI_PID';
/** JSON array of the (already redacted) command line, set by the `m3` CLI. */
export const ARGV_ENV = 'M3_ARGV';
/** Trials override set by the CLI's `--trials`. */
export const TRIALS_ENV = 'M3_TRIALS';
/** JSON server selections from the CLI's `--server` groups. */
export const SERVERS_ENV = 'M3_SERVERS';
/** JSON harness selections from the CLI's `--harness`. */
export const HARNESS_ENV = 'M3_HARNESS';
/** JSON list of MCP revisions from the CLI's `--protocol`: every `describe.m3` suite runs once per revision. */
export const PROTOCOLS_ENV = 'M3_PROTOCOLS';
/** Per-execution deadline from the CLI's `--execution-timeout`. */
export const EXECUTION_TIMEOUT_ENV = 'M3_EXECUTION_TIMEOUT_MS';

/** What a worker knows about the run it belongs to. */
export interface RunContext {
  readonly runId: string;
  /** `null` when global setup did not run (the environment was used without the preset). */
  readonly stateDir: string | null;
  /** CLI overrides for `test.m3`; `null` when not given. */
  readonly trials: number | null;
  readonly servers: unknown[] | null;
  readonly harness: unknown[] | null;
  /** CLI override of `describe.m3`'s `protocols`. */
  readonly protocols: string[] | null;
  readonly executionTimeoutMs: number | null;
}

/**
 * Reads the run context a worker inherited. Without global setup there is no `M3_RUN_ID`; the
 * worker then mints one and keeps it for every file it runs.
 */
export function readRunContext(env: NodeJS.ProcessEnv = process.env): RunContext {
  let runId = env[RUN_ID_ENV];
  if (runId === undefined || runId.trim().length === 0) {
    runId = newId('run');
    env[RUN_ID_ENV] = runId;
  }
  return {
    runId: runId.trim(),
    stateDir: nonEmpty(env[RUN_STATE_DIR_ENV]),
    trials: positiveInteger(env[TRIALS_ENV]),
    servers: jsonArray(env[SERVERS_ENV]),
    harness: jsonArray(env[HARNESS_ENV]),
    protocols: stringArray(env[PROTOCOLS_ENV]),
    executionTimeoutMs: positiveInteger(env[EXECUTION_TIMEOUT_ENV]),
  };
}

/** The run's command line: `M3_ARGV` from the CLI, else this process's arguments. */
export function readArgv(env: NodeJS.ProcessEnv, fallback: readonly string[]): string[] {
  const parsed = jsonArray(env[ARGV_ENV]);
  if (parsed !== null && parsed.every((item): item is string => typeof item === 'string')) return parsed;
  return [...fallback];
}

function nonEmpty(value: string | undefined): string | null {
  return value === undefined || value.trim().length === 0 ? null : value;
}

function positiveInteger(value: string | undefined): number | null {
  if (value === undefined || value.trim().length === 0) return null;
  const n = Number(value);
  return Number.isInteger(n) && n > 0 ? n : null;
}

function stringArray(value: string | undefined): string[] | null {
  const parsed = jsonArray(value);
  return parsed !== null && parsed.length > 0 && parsed.every((item) => typeof item === 'string') ? parsed : null;
}

function jsonArray(value: string | undefined): unknown[] | null {
  if (value === undefined || value.trim().length === 0) return null;
  try {
    const parsed: unknown = JSON.parse(value);
    return Array.isArray(parsed) ? parsed : null;
  } catch {
    return null;
  }
}
