import { M3Error } from '../../errors';
import { newId } from '../../ids';
import type { HarnessContext, HarnessDriver, HarnessTurn, HarnessTurnEnd } from '../HarnessDriver';
import { NativeEventRecorder } from '../native/NativeEventRecorder';
import type { ResolvedNativeSelection } from '../native/nativeSelection';
import { nativeToolSelection } from '../native/nativeToolSelection';
import { AgentProcess } from '../process/AgentProcess';
import { abortRejection, delay, endAgentProcess, exitWithin } from '../process/agentWaits';
import { removeLaunchRootNotingFailure, type AgentLaunchPlan } from '../process/launchPlan';
import { eraMismatchFor } from '../wire/eraMismatch';
import { TurnWireSync } from '../wire/TurnWireSync';
import { prepareCodexLaunch } from './codexLaunch';
import { CodexNotifications, type CodexServerStatus, type CodexTurnCompletion } from './CodexNotifications';
import { CodexRpc } from './CodexRpc';
import { answerCodexRequest } from './codexServerRequests';
import { codexAgentInfo, codexTurnEnd } from './codexTurnEnd';
import { codexExited, waitUntil } from './codexWaiting';
import { isObject } from '../../json';

/** Bound on `turn/interrupt` and on the agent leaving on its own after stdin closes. */
const CANCEL_WAIT_MS = 500;
const EXIT_WAIT_MS = 250;

type Params = Record<string, unknown>;

/**
 * The `codex` harness: one `codex app-server` per session (JSON-RPC over stdio) in its own process
 * group, with a private `CODEX_HOME`, every MCP server behind the kit's capture proxies, the
 * native allow-list from the run's `tools`, built-in tools off. `thread/start` once, `turn/start`
 * per prompt, `turn/interrupt` to cancel; notifications become the native trace events.
 */
export class CodexDriver implements HarnessDriver {
  readonly runtime = 'codex' as const;
  private readonly connectionId = newId('conn');
  private plan: AgentLaunchPlan | undefined;
  private process: AgentProcess | undefined;
  private rpc: CodexRpc | undefined;
  private wire: TurnWireSync | undefined;
  private notifications: CodexNotifications | undefined;
  private threadId = '';
  /** Codex's id of the turn in flight, once `turn/start` answered. */
  private codexTurnId: string | undefined;
  private readonly completed = new Map<string, CodexTurnCompletion>();
  private turnWaiter: (() => void) | undefined;
  private readonly servers = new Map<string, CodexServerStatus>();
  private serverWaiter: (() => void) | undefined;
  private inFlight: Promise<unknown> | undefined;
  private interruptSent = false;
  private closing: Promise<void> | undefined;

  constructor(
    private readonly selection: ResolvedNativeSelection,
    private readonly model: string,
  ) {}

  async open(ctx: HarnessContext): Promise<void> {
    const { recorder, options } = ctx;
    const events = new NativeEventRecorder(recorder, ctx.scope, this.connectionId);
    this.notifications = new CodexNotifications(events, {
      turnCompleted: (end) => {
        this.completed.set(end.turnId, end);
        this.turnWaiter?.();
      },
      serverStatus: (status) => {
        this.servers.set(status.name, status);
        this.serverWaiter?.();
      },
    });
    ctx.setStage({ stage: 'harness_startup', operation: 'start MCP capture proxies' });
    const wire = new TurnWireSync(ctx);
    this.wire = wire;
    const descriptors = await wire.group.start(ctx.signal);
    ctx.setStage({ stage: 'harness_startup', operation: 'launch' });
    const tools = nativeToolSelection(options.servers, options.policies);
    const launch = await prepareCodexLaunch(this.selection, this.model, descriptors, tools, ctx.redactor, ctx.cassette);
    this.plan = launch.plan;
    if (ctx.signal.aborted) throw ctx.signal.reason;
    const proc = new AgentProcess(this.plan, recorder, ctx.redactor, ctx.scope);
    this.process = proc;
    if (proc.pid === null) throw codexExited(await proc.exited, 'its start');
    this.rpc = new CodexRpc(proc.child.stdin, proc.child.stdout, {
      frame: (direction, raw) => events.frame(direction, raw),
      notification: (method, params) => {
        this.notifications?.handle(method, params);
        wire.sync();
      },
      request: async (method, params) => answerCodexRequest(method, params, options.policies, events),
      malformed: (reason) => events.malformed('codex_malformed_frame', reason),
    });

    ctx.setStage({ stage: 'harness_startup', operation: 'initialize' });
    const init = await this.call(ctx, 'initialize', {
      clientInfo: { name: 'sf-m3', title: 'sf-m3', version: '0.1.0' },
      capabilities: { experimentalApi: false },
    });
    await this.rpc.notify('initialized');
    ctx.setStage({ stage: 'harness_startup', operation: 'thread/start' });
    const started = await this.call(ctx, 'thread/start', {
      model: this.model,
      cwd: this.plan.workspace,
      approvalPolicy: 'never',
      sandbox: 'read-only',
      ephemeral: true,
    });
    const thread = isObject(started.thread) ? started.thread : {};
    if (typeof thread.id !== 'string' || thread.id === '') {
      throw new M3Error('codex_protocol_error', 'codex app-server answered thread/start without a thread id', {});
    }
    this.threadId = thread.id;
    events.sessionCreated({
      agentSessionId: thread.id,
      model: typeof started.model === 'string' ? started.model : this.model,
      agent: codexAgentInfo(init, started),
    });
    ctx.setStage({ stage: 'harness_startup', operation: 'MCP server startup' });
    await this.serversReady(
      ctx,
      descriptors.map((d) => d.name),
    ).catch(async (error: unknown) => {
      throw await withEraMismatch(error, wire, ctx);
    });
    proc.rememberDescendants();
    await wire.settle();
  }

  async runTurn(ctx: HarnessContext, turn: HarnessTurn): Promise<HarnessTurnEnd> {
    const notifications = this.notifications as CodexNotifications;
    const wire = this.wire as TurnWireSync;
    await wire.beginTurn(turn.turnId, () => this.process);
    notifications.beginTurn();
    this.interruptSent = false;
    this.codexTurnId = undefined;
    ctx.setStage({ stage: 'waiting_for_harness_response', operation: 'turn/start' });
    const work = this.turn(ctx, turn.prompt);
    this.inFlight = work.catch(() => undefined);
    try {
      const end = await work;
      return codexTurnEnd(end, notifications.turnText, this.interruptSent);
    } catch (error) {
      const text = notifications.turnText;
      if (ctx.signal.aborted) return { text, stopReason: null };
      const failure = error instanceof M3Error ? error : new M3Error('codex_connection_lost', String(error));
      const terminal = failure.code !== 'codex_request_failed';
      if (terminal) ctx.recorder.addLimitation('partial_trace');
      return { text, stopReason: null, error: failure, terminal };
    } finally {
      this.inFlight = undefined;
      await wire.endTurn();
    }
  }

  async cancelTurn(): Promise<void> {
    const rpc = this.rpc;
    if (this.inFlight === undefined || rpc === undefined || rpc.closed || this.interruptSent) return;
    this.interruptSent = true;
    const turnId = this.codexTurnId;
    const interrupt =
      turnId !== undefined
        ? rpc.request('turn/interrupt', { threadId: this.threadId, turnId }).catch(() => undefined)
        : Promise.resolve();
    await Promise.race([Promise.all([interrupt, this.inFlight]), delay(CANCEL_WAIT_MS)]);
  }

  close(ctx: HarnessContext): Promise<void> {
    this.closing ??= this.cleanup(ctx);
    return this.closing;
  }

  /** Interrupt a turn in flight, close stdin, end the process group, close the proxies, remove the temp root. */
  private async cleanup(ctx: HarnessContext): Promise<void> {
    await this.cancelTurn().catch(() => undefined);
    const clean = await endAgentProcess(this.process, EXIT_WAIT_MS);
    this.rpc?.close();
    await this.wire?.group.close();
    await removeLaunchRootNotingFailure(ctx.recorder, this.plan, clean);
  }

  /** `turn/start`, then the matching `turn/completed`. */
  private async turn(ctx: HarnessContext, prompt: string): Promise<CodexTurnCompletion> {
    const answer = await this.call(ctx, 'turn/start', {
      threadId: this.threadId,
      input: [{ type: 'text', text: prompt, text_elements: [] }],
    });
    const turn = isObject(answer.turn) ? answer.turn : {};
    const id = typeof turn.id === 'string' ? turn.id : '';
    this.codexTurnId = id;
    if (this.interruptSent) void this.rpc?.request('turn/interrupt', { threadId: this.threadId, turnId: id });
    return this.until(
      ctx,
      'turn/completed',
      () => this.completed.get(id),
      (wake) => (this.turnWaiter = wake),
    );
  }

  /** Waits until every server Codex was given reports `ready`; a failed startup fails the open. */
  private async serversReady(ctx: HarnessContext, names: readonly string[]): Promise<void> {
    const settled = (): true | undefined => {
      for (const name of names) {
        const status = this.servers.get(name);
        if (status === undefined || status.status === 'starting') return undefined;
        if (status.status !== 'ready') {
          throw new M3Error(
            'codex_mcp_startup_failed',
            `codex could not start MCP server '${name}' (${status.status}): ${status.error ?? 'no reason given'}`,
            { server: name, status: status.status },
          );
        }
      }
      return true;
    };
    await this.until(ctx, 'MCP server startup', settled, (wake) => (this.serverWaiter = wake));
  }

  private until<T>(
    ctx: HarnessContext,
    what: string,
    check: () => T | undefined,
    setWake: (wake: (() => void) | undefined) => void,
  ): Promise<T> {
    const proc = this.process as AgentProcess;
    return waitUntil(
      ctx.signal,
      proc.exited.then((exit) => codexExited(exit, what)),
      check,
      setWake,
    );
  }

  /** One request, raced against the exit and the execution's end. */
  private async call(ctx: HarnessContext, method: string, params: Params): Promise<Params> {
    const rpc = this.rpc as CodexRpc;
    const proc = this.process as AgentProcess;
    const abort = abortRejection(ctx.signal);
    try {
      const result = await Promise.race([rpc.request(method, params), abort.aborted]);
      return isObject(result) ? result : {};
    } catch (error) {
      if (ctx.signal.aborted || (error instanceof M3Error && error.code === 'codex_request_failed')) throw error;
      const exit = await exitWithin(proc, CANCEL_WAIT_MS);
      if (exit !== undefined) throw codexExited(exit, method);
      throw error;
    } finally {
      abort.dispose();
    }
  }
}

/**
 * A failed server startup, with the capture layer's words when the cause was the protocol era
 * (contract §23: Codex's MCP client speaks only 2025; the server serves only 2026-07-28).
 */
async function withEraMismatch(error: unknown, wire: TurnWireSync, ctx: HarnessContext): Promise<unknown> {
  if (!(error instanceof M3Error) || error.code !== 'codex_mcp_startup_failed') return error;
  const server = String(error.details.server);
  await wire.settle();
  const mismatch = eraMismatchFor(ctx.recorder.events, server);
  if (mismatch === undefined) return error;
  return new M3Error('codex_mcp_startup_failed', `${error.message}. ${mismatch}`, {
    ...error.details,
    cause: 'era_mismatch',
  });
}
