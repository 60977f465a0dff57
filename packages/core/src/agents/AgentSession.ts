import type OpenAI from 'openai';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { ExecutionOutcome } from '../enums';
import { M3Error, ModelValidationError } from '../errors';
import type { ErrorInfo, ExecutionResult, TurnResult } from '../execution/ExecutionResult';
import { buildExecutionResult, toErrorInfo } from '../execution/buildExecutionResult';
import { newId } from '../ids';
import type { JsonObject } from '../json';
import { linkToKit } from '../kit/kitLink';
import { createLogger, type M3Logger } from '../logging/logger';
import type { ContentBlock } from '../trace/TraceEntry';
import { TraceRecorder } from '../trace/TraceRecorder';
import type { TraceEvent } from '../trace/Event';
import type { TraceView } from '../trace/TraceView';
import type { DiagnosticPayload } from '../trace/payloads';
import type { AgentHost } from './AgentHost';
import { isErrorInfo, providerError } from './agentErrors';
import { agentExecutionRecord } from './agentExecutionRecord';
import { AgentMcpConnection } from './AgentMcpConnection';
import type { OpenAIEndpoint, ResolvedRunOptions } from './agentOptions';
import { createOpenAIClient, runOpenAITurn, type TurnStage } from './OpenAIHarness';
import { ToolCatalog } from './toolCatalog';

/** Who runs the session: harness kind, model and trial (also its labels). */
export interface AgentIdentity {
  readonly harness: 'openai';
  readonly model: string;
  readonly trial: number;
  readonly endpoint: OpenAIEndpoint;
}

/**
 * One agent execution (SPEC §14): the MCP connections, the conversation and its turns, recorded
 * into one trace and saved to the kit's store. `send(prompt)` runs a turn; `close()` finishes the
 * execution; a deadline finishes it `timed_out` with a diagnostic, and `send` then resolves with
 * that outcome instead of throwing. Made by `agent.session(...)` (and `agent.run`).
 */
export class AgentSession {
  readonly executionId = newId('exec');
  readonly sessionId = newId('session');
  private readonly traceId = newId('trace');
  private readonly recorder: TraceRecorder;
  private readonly logger: M3Logger;
  private readonly abort = new AbortController();
  private readonly connections: AgentMcpConnection[];
  private readonly catalog = new ToolCatalog();
  private readonly messages: ChatCompletionMessageParam[] = [];
  private readonly turns: TurnResult[] = [];
  private readonly startedAt: number;
  private readonly createdAt = new Date().toISOString();
  private stage: TurnStage = { stage: 'startup', operation: 'connect' };
  private currentTurn: string | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private deadline: NodeJS.Timeout | undefined;
  private timedOut = false;
  private ready = false;
  private creating: Promise<void> | undefined;
  private finishing: Promise<ExecutionResult> | undefined;
  private client: OpenAI | undefined;
  private resultValue: ExecutionResult | undefined;
  private unregister: () => void = () => undefined;

  constructor(
    private readonly host: AgentHost,
    private readonly identity: AgentIdentity,
    private readonly options: ResolvedRunOptions,
  ) {
    this.recorder = new TraceRecorder({
      executionId: this.executionId,
      redactor: host.redactor,
      traceId: this.traceId,
    });
    this.logger = createLogger(host.redactor, { component: 'agent-session', executionId: this.executionId });
    const scope = () => ({
      sessionId: this.sessionId,
      ...(this.currentTurn !== undefined && { turnId: this.currentTurn }),
    });
    this.connections = options.servers.map(
      (s) => new AgentMcpConnection(s, this.recorder, host.redactor, this.logger, scope),
    );
    this.startedAt = Date.now();
    linkToKit(this, host.linkTarget);
  }

  /** The execution result; undefined until the session is closed (or timed out). */
  get result(): ExecutionResult | undefined {
    return this.resultValue;
  }

  /** True once the execution has finished. */
  get closed(): boolean {
    return this.finishing !== undefined;
  }

  /** @internal Records the start, saves the execution record, connects the servers and lists tools. */
  async open(): Promise<this> {
    this.unregister = this.host.sessionOpened({ close: () => this.closeForKit() });
    const servers = this.options.servers.map((s) => this.host.redactor.redactJson(s.describe()));
    this.recorder.record('execution.created', {
      phase: 'startup',
      origin: 'normalized',
      direction: 'internal',
      payload: {
        traceId: this.traceId,
        runtime: 'openai',
        runId: this.host.runId,
        suiteName: this.host.suiteName,
        caseId: this.caseId,
        servers,
      },
    });
    this.host.executionCreated(this.executionId);
    this.creating = this.host.store.createExecution(
      agentExecutionRecord({
        host: this.host,
        identity: { ...this.identity, endpointHost: this.identity.endpoint.host },
        executionId: this.executionId,
        caseId: this.caseId,
        timeoutMs: this.options.timeoutMs,
        createdAt: this.createdAt,
        servers,
      }),
    );
    this.deadline = setTimeout(() => void this.expire(), this.options.timeoutMs);
    try {
      await this.creating;
      this.client = createOpenAIClient(this.identity.endpoint, this.host.redactor);
      this.recorder.record('session.created', {
        sessionId: this.sessionId,
        phase: 'startup',
        origin: 'normalized',
        payload: { sessionId: this.sessionId, agent: { name: 'sf-m3-openai-harness' }, model: this.identity.model },
      });
      for (const connection of this.connections) {
        this.stage = { stage: 'startup', operation: `connect ${connection.server.name}` };
        await connection.connect(this.abort.signal);
        this.stage = { stage: 'startup', operation: `tools/list ${connection.server.name}` };
        const tools = await connection.listTools(this.abort.signal);
        this.catalog.add(connection, tools, this.options.policies.get(connection.server.name) ?? { mode: 'allow_all' });
      }
      this.stage = { stage: 'idle', operation: 'waiting for a prompt' };
      this.ready = true;
    } catch (error) {
      if (!this.timedOut) await this.finish('failed', error);
    }
    return this;
  }

  /** Runs one turn; resolves with its result even when it failed or the deadline passed. */
  send(prompt: string): Promise<TurnResult> {
    if (typeof prompt !== 'string' || prompt.trim() === '') {
      return Promise.reject(new ModelValidationError('session.send needs a non-empty prompt string'));
    }
    const turn = this.queue.then(() => this.runTurn(prompt));
    this.queue = turn.catch(() => undefined);
    return turn;
  }

  /** Finishes the execution (closing its MCP connections) and saves it; idempotent. */
  async close(): Promise<ExecutionResult> {
    await this.queue;
    const failed = this.turns.some((t) => t.outcome === 'failed');
    return this.finish(failed ? 'failed' : 'completed', failed ? this.turns.find((t) => t.error)?.error : undefined);
  }

  /**
   * @internal Stops the execution now: a turn in flight is aborted and ends `cancelled`, and the
   * execution finishes `cancelled` (a handle's `cancel()`, or `kit.close()` mid-turn).
   */
  cancel(message = 'the execution was cancelled'): Promise<ExecutionResult> {
    if (this.finishing !== undefined) return this.finishing;
    if (this.currentTurn !== undefined) {
      this.recorder.record('turn.state_changed', {
        sessionId: this.sessionId,
        turnId: this.currentTurn,
        phase: 'turn',
        origin: 'normalized',
        payload: { turnId: this.currentTurn, outcome: 'cancelled', stopReason: null },
      });
    }
    return this.finish('cancelled', { code: 'cancelled', message, details: {} });
  }

  /** @internal Events recorded so far, and `listener` for every later one (for `ExecutionHandle`). */
  follow(listener: (event: TraceEvent) => void): { past: readonly TraceEvent[]; stop: () => void } {
    const past = [...this.recorder.events];
    const stop = this.recorder.finished ? () => undefined : this.recorder.subscribe(listener);
    return { past, stop };
  }

  /** `kit.close()`: an idle session closes normally; one opening or mid-turn is cancelled. */
  private closeForKit(): Promise<ExecutionResult> {
    if (this.finishing !== undefined) return this.finishing;
    if (this.ready && this.currentTurn === undefined) return this.close();
    return this.cancel(
      this.ready ? 'the kit was closed while a turn was running' : 'the kit was closed while the session was opening',
    );
  }

  private get caseId(): string | null {
    return this.options.caseId ?? this.host.caseId;
  }

  private async runTurn(prompt: string): Promise<TurnResult> {
    const turnId = newId('turn');
    const index = this.turns.length + 1;
    if (this.finishing !== undefined) {
      const finished = this.resultValue?.snapshot.outcome;
      const outcome = finished === 'timed_out' || finished === 'cancelled' ? finished : 'failed';
      const error: ErrorInfo = this.resultValue?.error ?? {
        code: 'session_closed',
        message: 'the session has finished: open a new one with agent.session(...)',
        details: {},
      };
      return this.turnResult({ turnId, index, prompt, outcome, text: null, stopReason: null, error }, false);
    }
    this.currentTurn = turnId;
    const scope = { sessionId: this.sessionId, turnId, phase: 'turn' as const };
    this.recorder.record('turn.created', { ...scope, origin: 'normalized', payload: { turnId, index, prompt } });
    this.recorder.record('agent.message', {
      ...scope,
      origin: 'harness_reported',
      payload: { role: 'user', content: [{ type: 'text', text: prompt }] },
    });
    this.messages.push({ role: 'user', content: prompt });
    let outcome: ExecutionOutcome = 'completed';
    let text: string | null = null;
    let stopReason: string | null = null;
    let error: ErrorInfo | undefined;
    try {
      const end = await runOpenAITurn({
        client: this.client as OpenAI,
        model: this.identity.model,
        maxRounds: this.identity.endpoint.maxRounds,
        recorder: this.recorder,
        catalog: this.catalog,
        messages: this.messages,
        sessionId: this.sessionId,
        turnId,
        signal: this.abort.signal,
        remainingMs: () => this.options.timeoutMs - (Date.now() - this.startedAt),
        setStage: (stage) => (this.stage = stage),
      });
      text = end.text;
      stopReason = end.stopReason;
      if (end.error !== undefined) {
        outcome = 'failed';
        error = toErrorInfo(end.error, this.host.redactor);
      } else if (text !== null) {
        this.messages.push({ role: 'assistant', content: text });
      }
    } catch (caught) {
      const interrupted = this.closed;
      outcome = this.timedOut ? 'timed_out' : interrupted ? 'cancelled' : 'failed';
      error = interrupted ? await this.finalError() : toErrorInfo(providerError(caught), this.host.redactor);
    }
    if (!this.recorder.finished) {
      this.recorder.record('turn.state_changed', {
        ...scope,
        origin: 'normalized',
        payload: { turnId, outcome, stopReason },
      });
    }
    this.currentTurn = undefined;
    this.stage = { stage: 'idle', operation: 'waiting for a prompt' };
    return this.turnResult({ turnId, index, prompt, outcome, text, stopReason, error }, true);
  }

  private turnResult(
    t: {
      turnId: string;
      index: number;
      prompt: string;
      outcome: ExecutionOutcome;
      text: string | null;
      stopReason: string | null;
      error: ErrorInfo | undefined;
    },
    keep: boolean,
  ): TurnResult {
    const view = (): TraceView | undefined => this.resultValue?.traceView;
    // The same redacted text the trace holds: a key the model echoes must not reach test output.
    const text = t.text !== null ? this.host.redactor.redactText(t.text) : null;
    const response = text !== null ? { text, content: [{ type: 'text', text }] as ContentBlock[] } : null;
    const turn: TurnResult = linkToKit(
      Object.freeze({
        turnId: t.turnId,
        executionId: this.executionId,
        index: t.index,
        prompt: t.prompt,
        outcome: t.outcome,
        response,
        stopReason: t.stopReason,
        ...(t.error !== undefined && { error: t.error }),
        get traceView(): TraceView | undefined {
          return view();
        },
      }),
      this.host.linkTarget,
    );
    if (keep) this.turns.push(turn);
    return turn;
  }

  /** The error the finished execution carries (the deadline's, after a timeout). */
  private async finalError(): Promise<ErrorInfo | undefined> {
    const finishing = this.finishing as Promise<ExecutionResult> | undefined;
    return (await finishing?.catch(() => undefined))?.error;
  }

  /** The deadline: abort what is in flight, record where it was, finish `timed_out`. */
  private async expire(): Promise<void> {
    if (this.finishing !== undefined) return;
    this.timedOut = true;
    const elapsedMs = Date.now() - this.startedAt;
    const diagnostic: DiagnosticPayload = {
      code: 'execution_timeout',
      message: `the agent execution passed its deadline of ${this.options.timeoutMs} ms during ${this.stage.stage} (${this.stage.operation}): raise timeoutMs or check the model and servers`,
      stage: this.stage.stage,
      operation: this.stage.operation,
      elapsedMs,
      timeoutMs: this.options.timeoutMs,
    };
    this.recorder.record('diagnostic', {
      sessionId: this.sessionId,
      ...(this.currentTurn !== undefined && { turnId: this.currentTurn }),
      phase: 'cleanup',
      origin: 'normalized',
      direction: 'internal',
      payload: diagnostic,
    });
    if (this.currentTurn !== undefined) {
      this.recorder.record('turn.state_changed', {
        sessionId: this.sessionId,
        turnId: this.currentTurn,
        phase: 'turn',
        origin: 'normalized',
        payload: { turnId: this.currentTurn, outcome: 'timed_out', stopReason: null },
      });
    }
    await this.finish('timed_out', { code: 'timeout', message: diagnostic.message, details: {} }).catch(
      (error: unknown) => this.logger.warn('finishing a timed-out agent execution failed', { error: String(error) }),
    );
  }

  private finish(outcome: ExecutionOutcome, error: unknown): Promise<ExecutionResult> {
    this.finishing ??= this.doFinish(outcome, error);
    return this.finishing;
  }

  private async doFinish(outcome: ExecutionOutcome, error: unknown): Promise<ExecutionResult> {
    clearTimeout(this.deadline);
    this.abort.abort(new M3Error('cancelled', 'the agent execution finished'));
    await Promise.all(this.connections.map((c) => c.close()));
    const info: ErrorInfo | undefined =
      error === undefined ? undefined : isErrorInfo(error) ? error : toErrorInfo(error, this.host.redactor);
    const trace = linkToKit(this.recorder.finish(outcome, info), this.host.linkTarget);
    const finishedAt = new Date().toISOString();
    const result = buildExecutionResult({
      trace,
      outcome,
      createdAt: this.createdAt,
      finishedAt,
      runId: this.host.runId,
      suiteName: this.host.suiteName,
      caseId: this.caseId,
      turns: this.turns,
      ...(info !== undefined && { error: info }),
      evaluations: () => this.host.evaluationsFor(this.executionId),
      kit: this.host.linkTarget,
    });
    this.resultValue = result;
    this.unregister();
    const created = await this.creating?.then(
      () => true,
      () => false,
    );
    if (created === true) {
      const write = this.host.store.finishExecution({
        executionId: this.executionId,
        outcome,
        finishedAt,
        snapshot: { ...result.snapshot } as JsonObject,
        trace,
        evidence: this.recorder.evidence,
      });
      this.host.trackWrite(write);
      await write;
    }
    return result;
  }
}
