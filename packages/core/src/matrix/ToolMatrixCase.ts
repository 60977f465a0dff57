import type { DirectClient } from '../client/DirectClient';
import type { DirectClientOptions } from '../client/DirectClientOptions';
import { ModelValidationError } from '../errors';
import type { ExecutionResult } from '../execution/ExecutionResult';
import { CallTool, type SpecEvaluation } from '../kit/DirectSpec';
import type { MCPTestKit } from '../kit/MCPTestKit';
import type { ExecutionRecord } from '../store/records';
import { caseIdOf, cellIdOf, executionCaseIdOf } from './caseIds';
import { matrixExecutionLabels, mergeMatrixMetadata, type MatrixMetadata } from './matrixMetadata';
import { ServerCase } from './ServerCase';
import { ToolCase } from './ToolCase';

/** What a cell needs from a kit: `run` for one-shot calls, `direct` for sessions. */
export type MatrixKit = Pick<MCPTestKit, 'run' | 'direct'>;

/** Options shared by `cell.run()` and `cell.session()`. */
export interface MatrixCellOptions {
  /** The kit to run in (default: `globalThis.m3Kit`, the per-test kit of the sf-m3 Jest environment). */
  kit?: MatrixKit;
  /** Extra metadata labels (scalar values; keys under `m3.matrix.` are reserved). */
  metadata?: Record<string, string | number | boolean | null>;
}

/** Options of `cell.run()`. */
export interface MatrixCellRunOptions extends MatrixCellOptions {
  /** Whole-execution deadline in ms (connect, call, cleanup); none by default. */
  timeoutMs?: number;
  /** Per-operation timeout of the client (default 30 000). */
  operationTimeoutMs?: number;
  /** Validate arguments and structured content against the tool's JSON Schemas. */
  validateSchemas?: boolean;
  /** Evaluations the execution must produce (`required: true`). */
  evaluations?: SpecEvaluation[];
}

/** Options of `cell.session()`: the kit, metadata and any `kit.direct` option. */
export type MatrixCellSessionOptions = MatrixCellOptions & DirectClientOptions;

/** Fields of a cell; `ToolMatrix.cases()` builds them. */
export interface ToolMatrixCaseFields {
  server: ServerCase;
  tool: ToolCase;
  matrixId: string;
  trial: number;
  trialCount: number;
}

/**
 * One cell of a `ToolMatrix`: one tool case on one server case, one trial (contract §13). Building it
 * does no I/O; `run()` and `session()` do the work in a kit.
 */
export class ToolMatrixCase {
  readonly server: ServerCase;
  readonly tool: ToolCase;
  readonly matrixId: string;
  /** `server/tool`, the same for every trial. */
  readonly cellId: string;
  /** `server/tool`, plus `/trial-N` when the matrix has trials > 1: unique within the matrix. */
  readonly caseId: string;
  /** `<matrixId>:<cellId>`: the case executions are saved under, shared by every trial (pass^k, pass@k). */
  readonly executionCaseId: string;
  /** 1-based trial number. */
  readonly trial: number;
  readonly trialCount: number;
  /** `m3.matrix.*` keys: caseId, matrixId, cellId, mode, servers, tool, trial, trialCount. */
  readonly metadata: MatrixMetadata;

  constructor(fields: ToolMatrixCaseFields) {
    if (typeof fields !== 'object' || fields === null) {
      throw new ModelValidationError('ToolMatrixCase needs { server, tool, matrixId, trial, trialCount }');
    }
    if (!(fields.server instanceof ServerCase) || !(fields.tool instanceof ToolCase)) {
      throw new ModelValidationError('ToolMatrixCase needs a ServerCase and one of its ToolCases');
    }
    if (!fields.server.tools.includes(fields.tool)) {
      throw new ModelValidationError(
        `ToolMatrixCase tool '${fields.tool.id}' is not one of server case '${fields.server.name}' tools`,
      );
    }
    if (typeof fields.matrixId !== 'string' || fields.matrixId.trim() === '') {
      throw new ModelValidationError('ToolMatrixCase matrixId must be a non-empty string');
    }
    for (const name of ['trial', 'trialCount'] as const) {
      if (!Number.isInteger(fields[name]) || fields[name] < 1) {
        throw new ModelValidationError(`ToolMatrixCase ${name} must be an integer >= 1`);
      }
    }
    if (fields.trial > fields.trialCount) {
      throw new ModelValidationError('ToolMatrixCase trial must not exceed trialCount');
    }
    this.server = fields.server;
    this.tool = fields.tool;
    this.matrixId = fields.matrixId;
    this.trial = fields.trial;
    this.trialCount = fields.trialCount;
    this.cellId = cellIdOf(fields.server.name, fields.tool.id);
    this.caseId = caseIdOf(this.cellId, this.trial, this.trialCount);
    this.executionCaseId = executionCaseIdOf(this.matrixId, this.cellId);
    this.metadata = Object.freeze({
      'm3.matrix.caseId': this.caseId,
      'm3.matrix.matrixId': this.matrixId,
      'm3.matrix.cellId': this.cellId,
      'm3.matrix.mode': 'tool',
      'm3.matrix.servers': this.server.name,
      'm3.matrix.tool': this.tool.name,
      'm3.matrix.trial': this.trial,
      'm3.matrix.trialCount': this.trialCount,
    });
    Object.freeze(this);
  }

  /** The labels this cell's executions carry: `matrixId`, `trial` and the metadata as `metadata.<key>`. */
  labels(metadata?: MatrixCellOptions['metadata']): Partial<ExecutionRecord['labels']> {
    return matrixExecutionLabels({
      matrixId: this.matrixId,
      trial: this.trial,
      metadata: mergeMatrixMetadata(this.metadata, metadata),
    });
  }

  /**
   * The `CallTool` spec this cell runs (no I/O): the tool case's call on the server case's server,
   * saved under `executionCaseId` with the cell's labels.
   */
  spec(options: Omit<MatrixCellRunOptions, 'kit'> = {}): CallTool {
    return new CallTool({
      server: this.server.server,
      tool: this.tool.name,
      arguments: { ...this.tool.arguments },
      caseId: this.executionCaseId,
      labels: this.labels(options.metadata),
      ...(options.timeoutMs !== undefined && { timeoutMs: options.timeoutMs }),
      ...(options.operationTimeoutMs !== undefined && { operationTimeoutMs: options.operationTimeoutMs }),
      ...(options.validateSchemas !== undefined && { validateSchemas: options.validateSchemas }),
      ...(options.evaluations !== undefined && { evaluations: options.evaluations }),
    });
  }

  /**
   * Calls the tool once in its own execution (connect, call, close) and returns the
   * `ExecutionResult`; `directResult` is the `ToolCallResult`. A tool error is a result, not a throw.
   */
  async run(options: MatrixCellRunOptions = {}): Promise<ExecutionResult> {
    const { kit, ...specOptions } = checkOptions(options, 'run');
    const spec = this.spec(specOptions);
    return resolveKit(kit, 'run').run(spec);
  }

  /**
   * A connected direct client on the cell's server, for multi-step cells; its execution carries
   * the cell's case and labels. Close it (or let the kit close it).
   */
  async session(options: MatrixCellSessionOptions = {}): Promise<DirectClient> {
    const { kit, metadata, ...clientOptions } = checkOptions(options, 'session');
    const labels = this.labels(metadata);
    const client = resolveKit(kit, 'session').direct(this.server.server, {
      ...clientOptions,
      caseId: this.executionCaseId,
      labels,
    });
    return client.connect();
  }

  /** A readable name: `catalog/normalize_customer trial 1/2`. */
  toString(): string {
    return this.trialCount > 1 ? `${this.cellId} trial ${this.trial}/${this.trialCount}` : this.cellId;
  }
}

function checkOptions<T extends object>(options: T, method: string): T {
  if (typeof options !== 'object' || options === null) {
    throw new ModelValidationError(`cell.${method}() options must be an object, e.g. { kit }`);
  }
  return options;
}

/** The environment's `m3Kit`, or undefined where there is none (its getter throws outside a test). */
function ambientM3Kit(): MatrixKit | undefined {
  try {
    return (globalThis as { m3Kit?: MatrixKit }).m3Kit;
  } catch {
    return undefined;
  }
}

/** The kit passed in, else the sf-m3 Jest environment's per-test `m3Kit`. */
function resolveKit(kit: MatrixKit | undefined, method: string): MatrixKit {
  const chosen = kit ?? ambientM3Kit();
  if (chosen === undefined || chosen === null) {
    throw new ModelValidationError(
      `cell.${method}() needs a kit: pass one (cell.${method}({ kit })) or call it inside a test of the sf-m3 Jest environment, where m3Kit is the test's kit`,
    );
  }
  if (typeof chosen.run !== 'function' || typeof chosen.direct !== 'function') {
    throw new ModelValidationError(`cell.${method}() kit must be an MCPTestKit`);
  }
  return chosen;
}
