import type { ExecutionOutcome } from '../enums';
import { M3Error, ModelValidationError } from '../errors';
import type { ErrorInfo, ExecutionResult, TurnResult } from '../execution/ExecutionResult';
import { toErrorInfo } from '../execution/buildExecutionResult';
import { newId } from '../ids';
import { linkToKit } from '../ownership/kitLink';
import { createLogger } from '../logging/logger';
import { TraceRecorder } from '../trace/TraceRecorder';
import type { TraceEvent } from '../trace/Event';
import type { DiagnosticPayload } from '../trace/payloads';
import type { AgentHost } from './AgentHost';
import type { ExecutionCassette } from './cassette/ExecutionCassette';
import { isErrorInfo, providerError } from './agentErrors';
import { finishAgentExecution, startAgentExecution, type AgentExecutionFacts } from './agentExecutionLifecycle';
import type { AgentRecordIdentity } from './agentExecutionRecord';
import type { ResolvedRunOptions } from './agentOptions';
import { agentTurnResult, type TurnFacts } from './agentTurnResult';
import type { HarnessContext, HarnessDriver, TurnStage } from './HarnessDriver';

/** Who runs the session: harness kind, model, trial and selection name (also its labels). */
export type AgentIdentity = AgentRecordIdentity;

/**
 * One agent execution (contract §14): the conversation and its turns, recorded into one trace and saved
 * to the kit's store. The lifecycle lives here and is the same for every harness; the harness's own
 * work is a `HarnessDriver`. `send(prompt)` runs a turn; `close()` finishes the execution; a
 * deadline finishes it `timed_out` with a diagnostic, and `send` then resolves with that outcome
 * instead of throwing. Made by `agent.session(...)` (and `agent.run`).
 */
export class AgentSession {
  readonly executionId = newId('exec');
  readonly sessionId = newId('session');
  private readonly traceId = newId('trace');
  private readonly recorder: TraceRecorder;
  private readonly abort = new AbortController();
  private readonly ctx: HarnessContext;
  private readonly turns: TurnResult[] = [];
  private readonly endedTurns = new Set<string>();
  private readonly startedAt = Date.now();
  private readonly createdAt = new Date().toISOString();
  private stage: TurnStage = { stage: 'startup', operation: 'connect' };
  private currentTurn: string | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private deadline: NodeJS.Timeout | undefined;
  private timedOut = false;
  private ready = false;
  private creating: Promise<void> | undefined;
  private finishing: Promise<ExecutionResult> | undefined;
  private resultValue: ExecutionResult | undefined;
  private unregister: () => void = () => undefined;

  constructor(
    private readonly host: AgentHost,
    private readonly identity: AgentIdentity,
    private readonly options: ResolvedRunOptions,
    private readonly driver: HarnessDriver,
    /** The execution's cassette channel (contract §24), or null when the kit has no cassettes. */
    private readonly cassette: ExecutionCassette | null = null,
  ) {
    this.recorder = new TraceRecorder({
      executionId: this.executionId,
      redactor: host.redactor,
      traceId: this.traceId,
    });
    this.ctx = {
      executionId: this.executionId,
      sessionId: this.sessionId,
      recorder: this.recorder,
      redactor: host.redactor,
      logger: createLogger(host.redactor, { component: 'agent-session', executionId: this.executionId }),
      options,
      signal: this.abort.signal,
      remainingMs: () => this.options.timeoutMs - (Date.now() - this.startedAt),
      setStage: (stage) => (this.stage = stage),
      scope: () => ({ sessionId: this.sessionId, ...(this.currentTurn !== undefined && { turnId: this.currentTurn }) }),
      cassette,
    };
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

  /** @internal Records the start, saves the execution record and opens the harness. */
  async open(): Promise<this> {
    this.unregister = this.host.sessionOpened({ close: () => this.closeForKit() });
    this.creating = startAgentExecution(this.facts);
    this.deadline = setTimeout(() => void this.expire(), this.options.timeoutMs);
    try {
      await this.creating;
      await this.driver.open(this.ctx);
      this.stage = { stage: 'idle', operation: 'waiting for a prompt' };
      this.ready = true;
    } catch (error) {
      if (!this.closed) await this.finish('failed', error);
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

  /** Finishes the execution (closing the harness) and saves it; idempotent. */
  async close(): Promise<ExecutionResult> {
    await this.queue;
    const failed = this.turns.some((t) => t.outcome === 'failed');
    return this.finish(failed ? 'failed' : 'completed', failed ? this.turns.find((t) => t.error)?.error : undefined);
  }

  /**
   * @internal Stops the execution now: a turn in flight is cancelled at the agent and ends
   * `cancelled`, and the execution finishes `cancelled` (a handle's `cancel()`, or `kit.close()`).
   */
  cancel(message = 'the execution was cancelled'): Promise<ExecutionResult> {
    if (this.finishing !== undefined) return this.finishing;
    const turnId = this.currentTurn;
    if (turnId !== undefined) this.endTurnState(turnId, 'cancelled', null);
    const cancelTurn = turnId !== undefined ? this.driver.cancelTurn?.(this.ctx) : undefined;
    return this.finish('cancelled', { code: 'cancelled', message, details: {} }, cancelTurn);
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

  private get facts(): AgentExecutionFacts {
    const { host, recorder, identity, options, executionId, traceId, createdAt } = this;
    const caseId = options.caseId ?? host.caseId;
    return { host, recorder, identity, options, executionId, traceId, runtime: this.driver.runtime, caseId, createdAt };
  }

  /** Records a turn's end once (a deadline or cancel may end it before the driver returns). */
  private endTurnState(turnId: string, outcome: ExecutionOutcome, stopReason: string | null): void {
    if (this.endedTurns.has(turnId) || this.recorder.finished) return;
    this.endedTurns.add(turnId);
    const payload = { turnId, outcome, stopReason };
    this.recorder.record('turn.state_changed', {
      sessionId: this.sessionId,
      turnId,
      phase: 'turn',
      origin: 'normalized',
      payload,
    });
  }

  private async runTurn(prompt: string): Promise<TurnResult> {
    const turnId = newId('turn');
    const index = this.turns.length + 1;
    if (this.finishing !== undefined) {
      // A deadline or cancel before this turn may still be closing the harness (open() returns as
      // soon as it aborts): the result it finishes with, not its absence, is this turn's outcome.
      await this.finishing.catch(() => undefined);
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
    // Until the harness names its own stage (it may first settle the last turn's wire evidence).
    this.stage = { stage: 'turn_start', operation: 'begin turn' };
    const scope = { sessionId: this.sessionId, turnId, phase: 'turn' as const };
    this.recorder.record('turn.created', { ...scope, origin: 'normalized', payload: { turnId, index, prompt } });
    this.recorder.record('agent.message', {
      ...scope,
      origin: 'harness_reported',
      payload: { role: 'user', content: [{ type: 'text', text: prompt }] },
    });
    let outcome: ExecutionOutcome = 'completed';
    let text: string | null = null;
    let stopReason: string | null = null;
    let error: ErrorInfo | undefined;
    let terminal: M3Error | undefined;
    try {
      const end = await this.driver.runTurn(this.ctx, { turnId, index, prompt });
      ({ text, stopReason } = end);
      if (this.closed) {
        outcome = this.timedOut ? 'timed_out' : 'cancelled';
        error = await this.finalError();
      } else if (end.error !== undefined) {
        outcome = 'failed';
        error = toErrorInfo(end.error, this.host.redactor);
        if (end.terminal === true) terminal = end.error;
      } else if (end.outcome !== undefined) {
        outcome = end.outcome;
      }
    } catch (caught) {
      const interrupted = this.closed;
      outcome = this.timedOut ? 'timed_out' : interrupted ? 'cancelled' : 'failed';
      error = interrupted ? await this.finalError() : toErrorInfo(providerError(caught), this.host.redactor);
    }
    // A request the cassette could not answer (mode replay): the turn, and the execution, fail with it.
    const miss = this.cassette?.miss() ?? null;
    if (miss !== null && !this.closed) {
      outcome = 'failed';
      error = toErrorInfo(miss, this.host.redactor);
      terminal = miss instanceof M3Error ? miss : new M3Error('cassette_miss', miss.message);
    }
    this.endTurnState(turnId, outcome, stopReason);
    this.currentTurn = undefined;
    this.stage = { stage: 'idle', operation: 'waiting for a prompt' };
    const turn = this.turnResult({ turnId, index, prompt, outcome, text, stopReason, error }, true);
    if (terminal !== undefined) await this.finish('failed', terminal);
    return turn;
  }

  private turnResult(t: Omit<TurnFacts, 'executionId'>, keep: boolean): TurnResult {
    const facts = { ...t, executionId: this.executionId };
    const turn = agentTurnResult(facts, this.host.redactor, this.host.linkTarget, () => this.resultValue?.traceView);
    if (keep) this.turns.push(turn);
    return turn;
  }

  /** The error the finished execution carries (the deadline's, after a timeout). */
  private async finalError(): Promise<ErrorInfo | undefined> {
    const finishing = this.finishing as Promise<ExecutionResult> | undefined;
    return (await finishing?.catch(() => undefined))?.error;
  }

  /** The deadline: record where the execution was, stop what is in flight, finish `timed_out`. */
  private async expire(): Promise<void> {
    if (this.finishing !== undefined) return;
    this.timedOut = true;
    const diagnostic: DiagnosticPayload = {
      code: 'execution_timeout',
      message: `the agent execution passed its deadline of ${this.options.timeoutMs} ms during ${this.stage.stage} (${this.stage.operation}): raise timeoutMs or check the model and servers`,
      stage: this.stage.stage,
      operation: this.stage.operation,
      elapsedMs: Date.now() - this.startedAt,
      timeoutMs: this.options.timeoutMs,
    };
    const turnId = this.currentTurn;
    this.recorder.record('diagnostic', {
      sessionId: this.sessionId,
      ...(turnId !== undefined && { turnId }),
      phase: 'cleanup',
      origin: 'normalized',
      direction: 'internal',
      payload: diagnostic,
    });
    if (turnId !== undefined) this.endTurnState(turnId, 'timed_out', null);
    const cancelTurn = turnId !== undefined ? this.driver.cancelTurn?.(this.ctx) : undefined;
    await this.finish('timed_out', { code: 'timeout', message: diagnostic.message, details: {} }, cancelTurn).catch(
      (error: unknown) =>
        this.ctx.logger.warn('finishing a timed-out agent execution failed', { error: String(error) }),
    );
  }

  private finish(outcome: ExecutionOutcome, error: unknown, before?: Promise<void>): Promise<ExecutionResult> {
    this.finishing ??= this.doFinish(outcome, error, before);
    return this.finishing;
  }

  private async doFinish(outcome: ExecutionOutcome, error: unknown, before?: Promise<void>): Promise<ExecutionResult> {
    clearTimeout(this.deadline);
    await before?.catch(() => undefined);
    this.abort.abort(new M3Error('cancelled', 'the agent execution finished'));
    await this.driver.close(this.ctx);
    let info: ErrorInfo | undefined =
      error === undefined ? undefined : isErrorInfo(error) ? error : toErrorInfo(error, this.host.redactor);
    // The cassette (contract §24): how the model traffic was served, and a replay miss, which ends
    // the execution `failed` with the miss as its error, as other infrastructure failures do (a
    // deadline the miss caused included; a cancel stays a cancel).
    const cassette = await this.cassette?.settle();
    let ending = outcome;
    if (cassette?.miss != null && outcome !== 'cancelled') {
      ending = 'failed';
      info = toErrorInfo(cassette.miss, this.host.redactor);
    }
    const metadata = cassette?.use != null ? { cassette: cassette.use } : undefined;
    const { result, save } = finishAgentExecution(this.facts, ending, info, this.turns, this.creating, metadata);
    this.resultValue = result;
    this.unregister();
    await save();
    return result;
  }
}
