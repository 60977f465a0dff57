/// <reference lib="esnext.disposable" />
import type { AgentHost } from '../agents/AgentHost';
import type { AgentSelectionSpec } from '../agents/agentOptions';
import { createAgentSelections, type AgentSelection, type AgentSelectionOptions } from '../agents/AgentSelection';
import { AgentSpec } from '../agents/AgentSpec';
import { DirectClient } from '../client/DirectClient';
import type { DirectClientHost, ExecutionContext } from '../client/DirectClientHost';
import { validateDirectClientOptions, type DirectClientOptions } from '../client/DirectClientOptions';
import { KitClosed, ModelValidationError, UnsupportedFeature } from '../errors';
import type { EvaluatorCallback, EvaluateOptions } from '../evaluation/EvaluatorCallback';
import { EvaluationEngine, type JudgeResponseOptions, type RecordedCheck } from '../evaluation/EvaluationEngine';
import type { EvaluationResult } from '../evaluation/EvaluationResult';
import { ExecutionHandle } from '../execution/ExecutionHandle';
import type { ExecutionResult } from '../execution/ExecutionResult';
import { newId } from '../ids';
import type { LLMJudge } from '../judge/LLMJudge';
import { createLogger, type M3Logger } from '../logging/logger';
import { Redactor } from '../redaction/Redactor';
import { isServerDefinition, type ServerDefinition } from '../servers/ServerDefinition';
import type { ExecutionStore } from '../store/ExecutionStore';
import { InMemoryExecutionStore } from '../store/InMemoryExecutionStore';
import type { ExecutionRecord } from '../store/records';
import type { EvidenceRef, RawEvidence } from '../trace/EvidenceRef';
import type { TraceResult } from '../trace/TraceResult';
import type { TraceView } from '../trace/TraceView';
import { DirectSpec } from './DirectSpec';
import { runDirectSpec } from './runDirectSpec';
import { linkToKit } from './kitLink';

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

/**
 * The entry point and cleanup boundary (SPEC §3): makes direct clients and one-shot executions,
 * saves their traces, runs evaluations, and on `close()` closes every client it made (even one a
 * test forgot), reaps every child process, awaits pending writes and closes a store it owns.
 */
export class MCPTestKit {
  readonly runId: string;
  readonly suiteName: string | null;
  readonly caseId: string | null;
  readonly attemptId: string | null;
  readonly store: ExecutionStore;
  readonly redactor: Redactor;
  /** Deadline of `run`/`submit` executions whose spec sets none (see `MCPTestKitOptions`). */
  readonly executionTimeoutMs: number | undefined;
  /** When true, matchers save their verdicts through `recordCheck`. */
  recordChecks: boolean;

  private readonly labels: Partial<ExecutionRecord['labels']>;
  private readonly ownsStore: boolean;
  private readonly engine: EvaluationEngine;
  private readonly logger: M3Logger;
  private readonly host: DirectClientHost;
  private readonly clients = new Set<DirectClient>();
  private readonly sessions = new Set<{ close(): Promise<unknown> }>();
  private readonly agentHost: AgentHost;
  private readonly executions: string[] = [];
  private readonly pending = new Set<Promise<unknown>>();
  private closing: Promise<void> | undefined;

  constructor(options: MCPTestKitOptions = {}) {
    if (typeof options !== 'object' || options === null) {
      throw new ModelValidationError('MCPTestKit options must be an object, e.g. new MCPTestKit({ runId })');
    }
    this.runId = optionalString(options.runId, 'runId') ?? newId('run');
    this.suiteName = optionalString(options.suiteName, 'suiteName') ?? null;
    this.caseId = optionalString(options.caseId, 'caseId') ?? null;
    this.attemptId = optionalString(options.attemptId, 'attemptId') ?? null;
    this.recordChecks = options.recordChecks === true;
    this.labels = { ...(options.labels ?? {}) };
    this.redactor = options.redactor ?? new Redactor();
    this.executionTimeoutMs = defaultExecutionTimeout(options.executionTimeoutMs, process.env);
    this.ownsStore = options.store === undefined;
    this.store = options.store ?? new InMemoryExecutionStore();
    this.logger = createLogger(this.redactor, { component: 'kit', runId: this.runId });
    const store = this.store;
    this.engine = new EvaluationEngine({
      store,
      redactor: this.redactor,
      runId: this.runId,
      suiteName: this.suiteName,
      caseId: this.caseId,
      executionLabels: async (executionId) => {
        try {
          return (await store.getExecution(executionId)).labels;
        } catch {
          return null;
        }
      },
    });
    this.host = {
      redactor: this.redactor,
      store,
      linkTarget: this,
      executionCreated: (executionId) => {
        this.executions.push(executionId);
      },
      trackWrite: (write) => this.track(write),
      clientClosed: (client) => {
        this.clients.delete(client as DirectClient);
      },
      evaluationsFor: (executionId) => this.engine.results().filter((r) => r.executionId === executionId),
    };
    const host = this.host;
    this.agentHost = {
      redactor: this.redactor,
      store,
      linkTarget: this,
      runId: this.runId,
      suiteName: this.suiteName,
      caseId: this.caseId,
      attemptId: this.attemptId,
      labels: this.labels,
      executionTimeoutMs: this.executionTimeoutMs,
      assertOpen: (method) => this.assertOpen(method),
      executionCreated: (executionId) => host.executionCreated(executionId),
      trackWrite: (write) => host.trackWrite(write),
      sessionOpened: (session) => {
        this.sessions.add(session);
        return () => this.sessions.delete(session);
      },
      evaluationsFor: (executionId) => host.evaluationsFor(executionId),
    };
  }

  /** True once `close()` has been called. */
  get closed(): boolean {
    return this.closing !== undefined;
  }

  /** A direct client for `server`, not yet connected: `await kit.direct(server).connect()`. */
  direct(server: ServerDefinition, options: DirectClientOptions & DirectExecutionOptions = {}): DirectClient {
    this.assertOpen('direct');
    if (!isServerDefinition(server)) {
      throw new ModelValidationError('kit.direct needs a server: a StdioServer, HTTPServer or InProcessServer');
    }
    const { caseId, labels, ...clientOptions } = options ?? {};
    const checked = validateDirectClientOptions(clientOptions);
    const execution = checkDirectExecutionOptions(caseId, labels);
    const spec = this.redactor.redactJson({
      kind: 'direct',
      operation: 'session',
      server: server.describe(),
      ...(checked.timeoutMs !== undefined && { timeoutMs: checked.timeoutMs }),
      validateSchemas: checked.validateSchemas === true,
      ...(checked.protocolVersion !== undefined && { protocolVersion: checked.protocolVersion }),
    });
    return this.makeClient(server, checked, this.executionContext({ spec, ...execution }));
  }

  /**
   * Runs a one-shot spec to its end (a `DirectSpec` or an `AgentSpec`); resolves with the result
   * even when it failed or timed out.
   */
  async run(spec: DirectSpec | AgentSpec): Promise<ExecutionResult> {
    return this.submit(spec).result();
  }

  /** Starts a one-shot spec (a `DirectSpec` or an `AgentSpec`) in the background and returns its handle. */
  submit(spec: DirectSpec | AgentSpec): ExecutionHandle {
    this.assertOpen('submit');
    if (spec instanceof AgentSpec) return this.submitAgent(spec);
    if (!(spec instanceof DirectSpec)) {
      throw new UnsupportedFeature(
        'kit.submit/run takes a DirectSpec (CallTool, ListTools, ReadResource, GetPrompt, Ping) or an AgentSpec; or run an agent from kit.agents() with agent.run(prompt, options) or agent.submit(prompt, options)',
      );
    }
    const client = this.makeClient(
      spec.server,
      {
        ...(spec.operationTimeoutMs !== undefined && { timeoutMs: spec.operationTimeoutMs }),
        validateSchemas: spec.validateSchemas,
      },
      this.executionContext({
        spec: this.redactor.redactJson(spec.describe()),
        ...(spec.caseId !== undefined && { caseId: spec.caseId }),
        labels: spec.labels,
        requiredEvaluators: spec.evaluations.filter((e) => e.required === true).map((e) => e.name),
      }),
    );
    const done = this.track(runDirectSpec(spec, client, this.executionTimeoutMs));
    return new ExecutionHandle({
      executionId: client.executionId,
      feed: client,
      done,
      cancel: () => client.closeWith({ reason: 'cancel' }),
    });
  }

  /**
   * Agents to test (SPEC §14): one `AgentSelection` per model × trial, with no I/O. This release
   * has the `openai` harness; other kinds throw `UnsupportedFeature` naming the kind.
   */
  agents(selections: readonly AgentSelectionSpec[], options?: AgentSelectionOptions): AgentSelection[] {
    this.assertOpen('agents');
    return createAgentSelections(this.agentHost, selections, options);
  }

  private submitAgent(spec: AgentSpec): ExecutionHandle {
    const selection = spec.selection((entry) => this.agents([entry]));
    if (!selection.ownedBy(this.agentHost)) {
      throw new ModelValidationError(
        'the AgentSpec names an agent selection made by another kit: make it with this kit.agents(...), or pass the selection entry itself',
      );
    }
    return selection.submit(spec.prompt, spec.options);
  }

  /** Names an evaluator callback (or an `LLMJudge`); it does not make it required. */
  registerEvaluator(name: string, evaluator: EvaluatorCallback | LLMJudge): void {
    this.assertOpen('registerEvaluator');
    this.engine.register(name, evaluator);
  }

  /** Runs a registered evaluator on `subject` and saves the verdict (SPEC §8). */
  async evaluate(subject: unknown, name: string, options?: EvaluateOptions): Promise<EvaluationResult> {
    this.assertOpen('evaluate');
    return this.engine.evaluate(subject, name, options);
  }

  /** Asks an LLM judge for a verdict and saves it (SPEC §9). */
  async judgeResponse(options: JudgeResponseOptions): Promise<EvaluationResult> {
    this.assertOpen('judgeResponse');
    return this.engine.judgeResponse(options);
  }

  /** Every evaluation this kit saved, oldest first. */
  evaluationResults(): EvaluationResult[] {
    return this.engine.results();
  }

  /** Required evaluations that did not pass. */
  requiredFailures(): EvaluationResult[] {
    return this.engine.requiredFailures();
  }

  /**
   * Saves a matcher verdict as `m3.expect.<matcher>` when `recordChecks` is on (else resolves to
   * null). The kit tracks the write, so `close()` waits for it.
   */
  async recordCheck(check: RecordedCheck): Promise<EvaluationResult | null> {
    this.assertOpen('recordCheck');
    if (!this.recordChecks) return null;
    const saving = this.engine.recordCheck(check);
    this.track(
      saving.catch((error: unknown) => this.logger.warn('saving a matcher check failed', { error: String(error) })),
    );
    return saving;
  }

  /** Ids of the executions this kit created, in creation order. */
  executionIds(): string[] {
    return [...this.executions];
  }

  /** The saved trace of an execution. */
  async getTrace(executionId: string): Promise<TraceResult> {
    this.assertOpen('getTrace');
    return linkToKit(await this.store.getTrace(executionId), this);
  }

  /** The saved, finalized view of an execution. */
  async getTraceView(executionId: string): Promise<TraceView> {
    this.assertOpen('getTraceView');
    return linkToKit(await this.store.getTraceView(executionId), this);
  }

  /** Reads raw evidence (a frame, stderr) back from the store, verified. */
  async readRawEvidence(ref: EvidenceRef, options?: { maxBytes?: number }): Promise<RawEvidence> {
    this.assertOpen('readRawEvidence');
    return this.store.readRawEvidence(ref, options);
  }

  /**
   * Closes every client the kit made (cancelling calls in flight), reaps their children, awaits
   * pending writes, then closes an owned store. Idempotent; rethrows the first failure after
   * everything was cleaned up.
   */
  close(): Promise<void> {
    this.closing ??= this.shutdown();
    return this.closing;
  }

  /** `await using kit = new MCPTestKit()`. */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  private async shutdown(): Promise<void> {
    const failures: unknown[] = [];
    const sessions = [...this.sessions];
    await Promise.all(sessions.map((s) => s.close().catch((e: unknown) => failures.push(e))));
    const clients = [...this.clients];
    await Promise.all(clients.map((c) => c.closeWith({ reason: 'kit' }).catch((e: unknown) => failures.push(e))));
    while (this.pending.size > 0) {
      await Promise.allSettled([...this.pending]);
    }
    if (this.ownsStore) {
      await this.store.close().catch((e: unknown) => failures.push(e));
    }
    if (failures.length > 0) throw failures[0];
  }

  private makeClient(server: ServerDefinition, options: DirectClientOptions, context: ExecutionContext): DirectClient {
    const client = new DirectClient(this.host, server, options, context);
    this.clients.add(client);
    return client;
  }

  private executionContext(overrides: Partial<ExecutionContext> & Pick<ExecutionContext, 'spec'>): ExecutionContext {
    return {
      runId: this.runId,
      suiteName: this.suiteName,
      caseId: this.caseId,
      attemptId: this.attemptId,
      requiredEvaluators: [],
      ...overrides,
      labels: mergeLabels(this.labels, overrides.labels),
    };
  }

  private track<T>(promise: Promise<T>): Promise<T> {
    const settled = promise.then(
      () => undefined,
      () => undefined,
    );
    this.pending.add(settled);
    void settled.then(() => this.pending.delete(settled));
    return promise;
  }

  private assertOpen(method: string): void {
    if (this.closing !== undefined) {
      throw new KitClosed(`the kit is closed: ${method}() needs an open MCPTestKit; create a new one`, { method });
    }
  }
}

/** Execution labels over the kit's; `metadata` keys merge instead of replacing the kit's map. */
function mergeLabels(
  kit: Partial<ExecutionRecord['labels']>,
  execution: Partial<ExecutionRecord['labels']> | undefined,
): Partial<ExecutionRecord['labels']> {
  const merged = { ...kit, ...(execution ?? {}) };
  if (kit.metadata !== undefined && execution?.metadata !== undefined) {
    merged.metadata = { ...kit.metadata, ...execution.metadata };
  }
  return merged;
}

function checkDirectExecutionOptions(
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

function optionalString(value: unknown, name: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' || value.trim() === '') {
    throw new ModelValidationError(`MCPTestKit ${name} must be a non-empty string`);
  }
  return value;
}
