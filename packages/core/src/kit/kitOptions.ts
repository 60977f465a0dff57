import { ModelValidationError } from '../errors';
import { newId } from '../ids';
import { resolveJudgeMaxRequests } from '../judge/budget/JudgeBudget';
import { Redactor } from '../redaction/Redactor';
import type { ExecutionStore } from '../store/ExecutionStore';
import type { ExecutionRecord } from '../store/records';
import { validateProtocolSetting, type ProtocolSetting } from '../servers/protocolSetting';
import type { CassetteScope } from '../cassettes/CassetteScope';

/** Options of `new MCPTestKit(options)`. */
export interface MCPTestKitOptions {
  /** Where executions, traces and evaluations go (default: an in-memory store the kit owns). */
  store?: ExecutionStore;
  /** The run executions belong to (default: a new `run-…` id). */
  runId?: string;
  suiteName?: string;
  caseId?: string;
  attemptId?: string;
  /** Save every matcher verdict as an evaluation (default false; on in the Jest environment). */
  recordChecks?: boolean;
  /** Labels every execution's evaluations inherit. */
  labels?: Partial<ExecutionRecord['labels']>;
  /** The redactor shared by everything the kit makes (default: a new one). */
  redactor?: Redactor;
  /**
   * Deadline in ms of every `run`/`submit` execution whose spec sets no `timeoutMs` (default:
   * `M3_EXECUTION_TIMEOUT_MS`, which `m3 test --execution-timeout` sets; else none).
   */
  executionTimeoutMs?: number;
  /**
   * Judge requests the whole run may send, counted in the store across workers (default:
   * `M3_JUDGE_MAX_REQUESTS`, which `m3 test --judge-max-requests` sets; else no cap). Calls past it
   * are `error` evaluations with code `judge_budget_exhausted`.
   */
  judgeMaxRequests?: number;
  /**
   * The protocol setting of every `kit.direct` connection that names none (contract §23): it wins
   * over the server definition's own. `describe.m3(name, { protocols })` sets it per test; a pinned
   * revision also labels the executions `metadata.protocolVersion`.
   */
  protocol?: ProtocolSetting;
  /**
   * The running test's cassettes (contract §24): every model client the kit launches or owns (agents,
   * judges called through its matchers) goes through a recording proxy opened from it. Set by the
   * Jest environment per test; default none (live traffic, nothing recorded).
   */
  cassettes?: CassetteScope;
}

/**
 * Execution options of `kit.direct` beside the client's: which case the connection's execution
 * belongs to and the labels its evaluations inherit (matrix cells use them).
 */
export interface DirectExecutionOptions {
  /** Logical case id of the execution (default: the kit's). */
  caseId?: string;
  /** Labels its evaluations inherit (trial, matrixId, metadata...), over the kit's. */
  labels?: Partial<ExecutionRecord['labels']>;
}

/** `MCPTestKitOptions` checked and with their defaults filled in, except the store. */
export interface ResolvedKitOptions {
  readonly runId: string;
  readonly suiteName: string | null;
  readonly caseId: string | null;
  readonly attemptId: string | null;
  readonly recordChecks: boolean;
  readonly labels: Partial<ExecutionRecord['labels']>;
  readonly redactor: Redactor;
  readonly executionTimeoutMs: number | undefined;
  /** Judge request cap of the run, or null for none. */
  readonly judgeMaxRequests: number | null;
  readonly protocol: ProtocolSetting | undefined;
  readonly cassettes: CassetteScope | null;
}

/** Checks `new MCPTestKit(options)` options and fills in their defaults (a new run id, redactor...). */
export function resolveKitOptions(options: MCPTestKitOptions, env: NodeJS.ProcessEnv): ResolvedKitOptions {
  if (typeof options !== 'object' || options === null) {
    throw new ModelValidationError('MCPTestKit options must be an object, e.g. new MCPTestKit({ runId })');
  }
  const protocol = validateProtocolSetting(options.protocol, 'MCPTestKit');
  const pinned = protocol !== undefined && protocol !== 'auto' && protocol !== 'legacy';
  return {
    runId: optionalString(options.runId, 'runId') ?? newId('run'),
    suiteName: optionalString(options.suiteName, 'suiteName') ?? null,
    caseId: optionalString(options.caseId, 'caseId') ?? null,
    attemptId: optionalString(options.attemptId, 'attemptId') ?? null,
    recordChecks: options.recordChecks === true,
    labels: pinned
      ? { ...options.labels, metadata: { ...options.labels?.metadata, protocolVersion: protocol } }
      : { ...(options.labels ?? {}) },
    redactor: options.redactor ?? new Redactor(),
    executionTimeoutMs: defaultExecutionTimeout(options.executionTimeoutMs, env),
    judgeMaxRequests: resolveJudgeMaxRequests(options.judgeMaxRequests, env),
    protocol,
    cassettes: options.cassettes ?? null,
  };
}

/** `executionTimeoutMs` from the option, else from `M3_EXECUTION_TIMEOUT_MS`, else undefined. */
function defaultExecutionTimeout(option: number | undefined, env: NodeJS.ProcessEnv): number | undefined {
  if (option !== undefined) {
    if (!Number.isInteger(option) || option <= 0) {
      throw new ModelValidationError(`executionTimeoutMs must be a positive whole number of ms, got ${String(option)}`);
    }
    return option;
  }
  const raw = env.M3_EXECUTION_TIMEOUT_MS;
  if (raw === undefined || raw === '') return undefined;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0) {
    throw new ModelValidationError(
      `M3_EXECUTION_TIMEOUT_MS must be a positive whole number of ms, got ${JSON.stringify(raw)}: fix or unset it`,
    );
  }
  return value;
}

/** Checks `kit.direct`'s execution options (`caseId`, `labels`) and keeps only those given. */
export function checkDirectExecutionOptions(
  caseId: unknown,
  labels: unknown,
): { caseId?: string; labels?: Partial<ExecutionRecord['labels']> } {
  if (caseId !== undefined && (typeof caseId !== 'string' || caseId.trim() === '')) {
    throw new ModelValidationError('kit.direct caseId must be a non-empty string', { option: 'caseId' });
  }
  if (labels !== undefined && (typeof labels !== 'object' || labels === null || Array.isArray(labels))) {
    throw new ModelValidationError('kit.direct labels must be an object such as { trial: "1" }', { option: 'labels' });
  }
  return {
    ...(caseId !== undefined && { caseId }),
    ...(labels !== undefined && { labels: labels as Partial<ExecutionRecord['labels']> }),
  };
}

/** Execution labels over the kit's; `metadata` keys merge instead of replacing the kit's map. */
export function mergeLabels(
  kit: Partial<ExecutionRecord['labels']>,
  execution: Partial<ExecutionRecord['labels']> | undefined,
): Partial<ExecutionRecord['labels']> {
  const merged = { ...kit, ...(execution ?? {}) };
  if (kit.metadata !== undefined && execution?.metadata !== undefined) {
    merged.metadata = { ...kit.metadata, ...execution.metadata };
  }
  return merged;
}

function optionalString(value: unknown, name: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' || value.trim() === '') {
    throw new ModelValidationError(`MCPTestKit ${name} must be a non-empty string`);
  }
  return value;
}
