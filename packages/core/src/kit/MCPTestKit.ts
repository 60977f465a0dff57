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
import type { ExecutionHandle } from '../execution/ExecutionHandle';
import type { ExecutionResult } from '../execution/ExecutionResult';
import type { LLMJudge } from '../judge/LLMJudge';
import { storeJudgeBudget } from '../judge/budget/JudgeBudget';
import { createLogger, type M3Logger } from '../logging/logger';
import type { Redactor } from '../redaction/Redactor';
import { isServerDefinition, type ServerDefinition } from '../servers/ServerDefinition';
import type { ProtocolSetting } from '../servers/protocolSetting';
import type { CassetteScope } from '../cassettes/CassetteScope';
import type { ExecutionStore } from '../store/ExecutionStore';
import { InMemoryExecutionStore } from '../store/InMemoryExecutionStore';
import type { ExecutionRecord } from '../store/records';
import type { EvidenceRef, RawEvidence } from '../trace/EvidenceRef';
import type { TraceResult } from '../trace/TraceResult';
import type { TraceView } from '../trace/TraceView';
import { DirectSpec } from './DirectSpec';
import { ExecutionLabelCache } from './ExecutionLabelCache';
import { createAgentHost, createDirectClientHost, type KitHostSources } from './kitHosts';
import { linkToKit } from '../ownership/kitLink';
import {
  checkDirectExecutionOptions,
  mergeLabels,
  resolveKitOptions,
  type DirectExecutionOptions,
  type MCPTestKitOptions,
} from './kitOptions';
import { KitResources } from './KitResources';
import { submitDirectSpec } from './submitDirectSpec';

export type { DirectExecutionOptions, MCPTestKitOptions } from './kitOptions';

/**
 * The entry point and cleanup boundary (contract §3): makes direct clients and one-shot executions,
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
  /**
   * The running test's cassettes (contract §24), or null: agents and judges the kit runs open their
   * recording proxy from it.
   */
  readonly cassettes: CassetteScope | null;

  private readonly labels: Partial<ExecutionRecord['labels']>;
  /** The protocol setting of `direct` connections that name none (`MCPTestKitOptions.protocol`). */
  private readonly protocol: ProtocolSetting | undefined;
  private readonly ownsStore: boolean;
  private readonly engine: EvaluationEngine;
  private readonly logger: M3Logger;
  private readonly resources = new KitResources();
  private readonly host: DirectClientHost;
  private readonly agentHost: AgentHost;
  private closing: Promise<void> | undefined;

  constructor(options: MCPTestKitOptions = {}) {
    const resolved = resolveKitOptions(options, process.env);
    this.runId = resolved.runId;
    this.suiteName = resolved.suiteName;
    this.caseId = resolved.caseId;
    this.attemptId = resolved.attemptId;
    this.recordChecks = resolved.recordChecks;
    this.labels = resolved.labels;
    this.protocol = resolved.protocol;
    this.cassettes = resolved.cassettes;
    this.redactor = resolved.redactor;
    this.executionTimeoutMs = resolved.executionTimeoutMs;
    this.ownsStore = options.store === undefined;
    this.store = options.store ?? new InMemoryExecutionStore();
    this.logger = createLogger(this.redactor, { component: 'kit', runId: this.runId });
    const executionLabels = new ExecutionLabelCache(this.store);
    this.engine = new EvaluationEngine({
      store: this.store,
      redactor: this.redactor,
      runId: this.runId,
      suiteName: this.suiteName,
      caseId: this.caseId,
      executionLabels: (executionId) => executionLabels.labelsOf(executionId),
      judgeBudget:
        resolved.judgeMaxRequests === null ? null : storeJudgeBudget(this.store, this.runId, resolved.judgeMaxRequests),
      cassettes: this.cassettes,
    });
    const sources: KitHostSources = {
      redactor: this.redactor,
      store: this.store,
      linkTarget: this,
      resources: this.resources,
      evaluationsFor: (executionId) => this.engine.results().filter((r) => r.executionId === executionId),
    };
    this.host = createDirectClientHost(sources);
    this.agentHost = createAgentHost(sources, {
      runId: this.runId,
      suiteName: this.suiteName,
      caseId: this.caseId,
      attemptId: this.attemptId,
      labels: this.labels,
      executionTimeoutMs: this.executionTimeoutMs,
      cassettes: this.cassettes,
      assertOpen: (method) => this.assertOpen(method),
    });
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
    const { caseId, labels, ...given } = options ?? {};
    const named = given.protocol !== undefined || given.protocolVersion !== undefined;
    const clientOptions = named || this.protocol === undefined ? given : { ...given, protocol: this.protocol };
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
    return this.makeClient(server, checked, { spec, ...execution });
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
    return submitDirectSpec(spec, {
      redactor: this.redactor,
      executionTimeoutMs: this.executionTimeoutMs,
      openClient: (server, options, overrides) => this.makeClient(server, options, overrides),
      track: (promise) => this.resources.track(promise),
    });
  }

  /**
   * Agents to test (contract §14, §18): one `AgentSelection` per model × trial, with no I/O. Harnesses:
   * `openai` (chat completions), `acp` (an ACP agent from its manifest), and the native CLIs
   * `claude_code`, `codex`, `opencode` and `pi`; any other kind throws `UnsupportedFeature` naming it.
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

  /** Runs a registered evaluator on `subject` and saves the verdict (contract §8). */
  async evaluate(subject: unknown, name: string, options?: EvaluateOptions): Promise<EvaluationResult> {
    this.assertOpen('evaluate');
    return this.engine.evaluate(subject, name, options);
  }

  /** Asks an LLM judge for a verdict and saves it (contract §9). */
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
    this.resources.track(
      saving.catch((error: unknown) => this.logger.warn('saving a matcher check failed', { error: String(error) })),
    );
    return saving;
  }

  /** Ids of the executions this kit created, in creation order. */
  executionIds(): string[] {
    return this.resources.executionIds();
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
    this.closing ??= this.resources.closeAll(this.ownsStore ? this.store : undefined);
    return this.closing;
  }

  /** `await using kit = new MCPTestKit()`. */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  /** A client whose execution has the kit's context (run, suite, case, labels) under `overrides`. */
  private makeClient(
    server: ServerDefinition,
    options: DirectClientOptions,
    overrides: Partial<ExecutionContext> & Pick<ExecutionContext, 'spec'>,
  ): DirectClient {
    const context: ExecutionContext = {
      runId: this.runId,
      suiteName: this.suiteName,
      caseId: this.caseId,
      attemptId: this.attemptId,
      requiredEvaluators: [],
      ...overrides,
      labels: mergeLabels(this.labels, overrides.labels),
    };
    const client = new DirectClient(this.host, server, options, context);
    this.resources.clientOpened(client);
    return client;
  }

  private assertOpen(method: string): void {
    if (this.closing !== undefined) {
      throw new KitClosed(`the kit is closed: ${method}() needs an open MCPTestKit; create a new one`, { method });
    }
  }
}
