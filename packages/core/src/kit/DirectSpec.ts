import type { DirectClient } from '../client/DirectClient';
import { checkTimeoutMs } from '../client/DirectClientOptions';
import { ModelValidationError } from '../errors';
import type { JsonObject, JsonValue } from '../json';
import { toJsonValue } from '../redaction/Redactor';
import { isServerDefinition, type ServerDefinition } from '../servers/ServerDefinition';
import type { ExecutionRecord } from '../store/records';

/** An evaluator every execution of a spec must (or may) produce. */
export interface SpecEvaluation {
  name: string;
  required?: boolean;
}

/** Options every one-shot direct spec takes. */
export interface DirectSpecOptions {
  /** The server to connect to. */
  server: ServerDefinition;
  /** Logical case id (default: the kit's). */
  caseId?: string;
  /**
   * Whole-execution deadline in ms (connect, the operation and cleanup); default: the kit's
   * `executionTimeoutMs` (`M3_EXECUTION_TIMEOUT_MS`), else none.
   */
  timeoutMs?: number;
  /** Per-operation timeout of the client (default 30 000). */
  operationTimeoutMs?: number;
  /** Validate tool schemas (`CallTool` only). */
  validateSchemas?: boolean;
  /** Evaluations the execution must produce (`required: true`) — recorded on the execution. */
  evaluations?: SpecEvaluation[];
  /** Labels its evaluations inherit (harness, model, trial, matrixId, metadata...). */
  labels?: Partial<ExecutionRecord['labels']>;
}

/**
 * A one-shot direct execution: connect, run one MCP operation, close (upstream `DirectSpec`).
 * Run it with `kit.run(spec)` or `kit.submit(spec)`; the `ExecutionResult.directResult` holds the
 * operation's result.
 */
export abstract class DirectSpec {
  readonly server: ServerDefinition;
  readonly caseId: string | undefined;
  readonly timeoutMs: number | undefined;
  readonly operationTimeoutMs: number | undefined;
  readonly validateSchemas: boolean;
  readonly evaluations: readonly SpecEvaluation[];
  readonly labels: Partial<ExecutionRecord['labels']>;
  /** The operation kind, stored with the result (`call_tool`, `list_tools`, ...). */
  abstract readonly operation: string;

  protected constructor(options: DirectSpecOptions, className: string) {
    if (typeof options !== 'object' || options === null) {
      throw new ModelValidationError(`${className} needs options, e.g. new ${className}({ server, ... })`);
    }
    if (!isServerDefinition(options.server)) {
      throw new ModelValidationError(`${className} needs a server: a StdioServer, HTTPServer or InProcessServer`);
    }
    this.server = options.server;
    if (options.caseId !== undefined && (typeof options.caseId !== 'string' || options.caseId.trim() === '')) {
      throw new ModelValidationError(`${className} caseId must be a non-empty string`);
    }
    this.caseId = options.caseId;
    this.timeoutMs = checkTimeoutMs(options.timeoutMs, 'timeoutMs');
    this.operationTimeoutMs = checkTimeoutMs(options.operationTimeoutMs, 'operationTimeoutMs');
    this.validateSchemas = options.validateSchemas === true;
    const evaluations = options.evaluations ?? [];
    if (!Array.isArray(evaluations) || evaluations.some((e) => typeof e?.name !== 'string' || e.name.trim() === '')) {
      throw new ModelValidationError(`${className} evaluations must be a list of { name, required? }`);
    }
    this.evaluations = evaluations.map((e) => ({ name: e.name, required: e.required === true }));
    this.labels = { ...(options.labels ?? {}) };
  }

  /** @internal Runs the operation on a connected client. */
  abstract perform(client: DirectClient): Promise<unknown>;

  /** @internal The JSON stored in `execution.finished` for the operation's result. */
  toDirectResult(result: unknown): JsonValue {
    const json = toJsonValue(result);
    const body = json !== null && typeof json === 'object' && !Array.isArray(json) ? json : { value: json };
    return { kind: this.operation, ...body };
  }

  /** @internal Redacted-by-the-kit description stored on the execution record. */
  describe(): JsonObject {
    return {
      kind: 'direct',
      operation: this.operation,
      server: this.server.describe(),
      ...this.operationFields(),
      ...(this.timeoutMs !== undefined && { timeoutMs: this.timeoutMs }),
      validateSchemas: this.validateSchemas,
    };
  }

  protected abstract operationFields(): JsonObject;
}

/** Calls one tool (`directResult` is the `ToolCallResult`). */
export class CallTool extends DirectSpec {
  readonly operation = 'call_tool';
  readonly tool: string;
  readonly arguments: Record<string, unknown>;

  constructor(options: DirectSpecOptions & { tool: string; arguments?: Record<string, unknown> }) {
    super(options, 'CallTool');
    if (typeof options.tool !== 'string' || options.tool === '') {
      throw new ModelValidationError("CallTool needs the tool name: new CallTool({ server, tool: 'echo', arguments })");
    }
    const args = options.arguments ?? {};
    if (typeof args !== 'object' || args === null || Array.isArray(args)) {
      throw new ModelValidationError('CallTool arguments must be an object of argument name → value');
    }
    this.tool = options.tool;
    this.arguments = args;
  }

  perform(client: DirectClient): Promise<unknown> {
    return client.callTool(this.tool, this.arguments);
  }

  protected operationFields(): JsonObject {
    return { tool: this.tool, arguments: toJsonValue(this.arguments) };
  }
}

/** Lists tools: every page by default, or one page from `cursor` with `allPages: false`. */
export class ListTools extends DirectSpec {
  readonly operation = 'list_tools';
  readonly cursor: string | undefined;
  readonly allPages: boolean;

  constructor(options: DirectSpecOptions & { cursor?: string; allPages?: boolean }) {
    super(options, 'ListTools');
    this.cursor = options.cursor;
    this.allPages = options.allPages ?? options.cursor === undefined;
  }

  async perform(client: DirectClient): Promise<unknown> {
    if (this.allPages) return { tools: await client.listAllTools(), nextCursor: null };
    const page = await client.listTools(this.cursor !== undefined ? { cursor: this.cursor } : {});
    return { tools: page.tools, nextCursor: page.nextCursor ?? null };
  }

  protected operationFields(): JsonObject {
    return { allPages: this.allPages, ...(this.cursor !== undefined && { cursor: this.cursor }) };
  }
}

/** Reads one resource (`directResult` has `contents` and `text`). */
export class ReadResource extends DirectSpec {
  readonly operation = 'read_resource';
  readonly uri: string;

  constructor(options: DirectSpecOptions & { uri: string }) {
    super(options, 'ReadResource');
    if (typeof options.uri !== 'string' || options.uri === '') {
      throw new ModelValidationError("ReadResource needs a uri: new ReadResource({ server, uri: 'memory://guide' })");
    }
    this.uri = options.uri;
  }

  perform(client: DirectClient): Promise<unknown> {
    return client.readResource(this.uri);
  }

  protected operationFields(): JsonObject {
    return { uri: this.uri };
  }
}

/** Renders one prompt. */
export class GetPrompt extends DirectSpec {
  readonly operation = 'get_prompt';
  readonly name: string;
  readonly arguments: Record<string, string>;

  constructor(options: DirectSpecOptions & { name: string; arguments?: Record<string, string> }) {
    super(options, 'GetPrompt');
    if (typeof options.name !== 'string' || options.name === '') {
      throw new ModelValidationError("GetPrompt needs the prompt name: new GetPrompt({ server, name: 'review' })");
    }
    const args = options.arguments ?? {};
    if (typeof args !== 'object' || args === null || Object.values(args).some((v) => typeof v !== 'string')) {
      throw new ModelValidationError('GetPrompt arguments must be an object of name → string');
    }
    this.name = options.name;
    this.arguments = args;
  }

  perform(client: DirectClient): Promise<unknown> {
    return client.getPrompt(this.name, this.arguments);
  }

  protected operationFields(): JsonObject {
    return { name: this.name, arguments: { ...this.arguments } };
  }
}

/** Pings the server (`directResult` is `{}`). */
export class Ping extends DirectSpec {
  readonly operation = 'ping';

  constructor(options: DirectSpecOptions) {
    super(options, 'Ping');
  }

  async perform(client: DirectClient): Promise<unknown> {
    await client.ping();
    return {};
  }

  protected operationFields(): JsonObject {
    return {};
  }
}
