import { M3Error } from '../../errors';
import { newId } from '../../ids';
import type { HarnessContext, HarnessDriver, HarnessTurn, HarnessTurnEnd } from '../HarnessDriver';
import { NativeEventRecorder } from '../native/NativeEventRecorder';
import type { ResolvedNativeSelection } from '../native/nativeSelection';
import { nativeToolSelection } from '../native/nativeToolSelection';
import { AgentProcess, type AgentExit } from '../process/AgentProcess';
import { removeLaunchRoot, type AgentLaunchPlan } from '../process/launchPlan';
import { AgentServerGroup } from '../wire/AgentServerGroup';
import { prepareCodexLaunch } from './codexLaunch';
import { CodexNotifications, type CodexServerStatus, type CodexTurnCompletion } from './CodexNotifications';
import { CodexRpc } from './CodexRpc';
import { answerCodexRequest } from './codexServerRequests';
import { codexAgentInfo, codexTurnEnd } from './codexTurnEnd';

/** How often wire evidence is read while a turn runs. */
const SYNC_INTERVAL_MS = 100;
/** Bound on `turn/interrupt` and on the agent leaving on its own after stdin closes. */
const CANCEL_WAIT_MS = 500;
const EXIT_WAIT_MS = 250;

const delay = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms).unref());
type Params = Record<string, unknown>;
const isObject = (v: unknown): v is Params => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The error of a Codex that exited (or could not start) while the kit waited for `what`. */
function codexExited(exit: AgentExit, what: string): M3Error {
  const how = exit.spawnError ?? (exit.signal !== null ? `signal ${exit.signal}` : `exit code ${String(exit.code)}`);
  return new M3Error('agent_exited', `codex app-server exited (${how}) while the kit waited for ${what}`, {
    exitCode: exit.code,
    signal: exit.signal,
    method: what,
  });
}

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
  private group: AgentServerGroup | undefined;
  private notifications: CodexNotifications | undefined;
  private threadId = '';
  private wireTurnId: string | undefined;
  /** Codex's id of the turn in flight, once `turn/start` answered. */
  private codexTurnId: string | undefined;
  private readonly completed = new Map<string, CodexTurnCompletion>();
  private turnWaiter: (() => void) | undefined;
  private readonly servers = new Map<string, CodexServerStatus>();
  private serverWaiter: (() => void) | undefined;
  private inFlight: Promise<unknown> | undefined;
  private interruptSent = false;
  private syncing: Promise<void> = Promise.resolve();
  private syncQueued = false;
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
    this.group = new AgentServerGroup({
      servers: options.servers,
      policies: options.policies,
      recorder,
      redactor: ctx.redactor,
      logger: ctx.logger,
      scope: () => ({ sessionId: ctx.sessionId, ...(this.wireTurnId !== undefined && { turnId: this.wireTurnId }) }),
    });
    const descriptors = await this.group.start(ctx.signal);
    ctx.setStage({ stage: 'harness_startup', operation: 'launch' });
    const tools = nativeToolSelection(options.servers, options.policies);
    const launch = await prepareCodexLaunch(this.selection, this.model, descriptors, tools, ctx.redactor);
    this.plan = launch.plan;
    if (ctx.signal.aborted) throw ctx.signal.reason;
    const proc = new AgentProcess(this.plan, recorder, ctx.redactor, ctx.scope);
    this.process = proc;
    if (proc.pid === null) throw codexExited(await proc.exited, 'its start');
    this.rpc = new CodexRpc(proc.child.stdin, proc.child.stdout, {
      frame: (direction, raw) => events.frame(direction, raw),
      notification: (method, params) => {
        this.notifications?.handle(method, params);
        this.sync();
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
    );
    proc.rememberDescendants();
    this.sync();
    await this.syncing;
  }

  async runTurn(ctx: HarnessContext, turn: HarnessTurn): Promise<HarnessTurnEnd> {
    const notifications = this.notifications as CodexNotifications;
    this.sync();
    await this.syncing;
    this.wireTurnId = turn.turnId;
    notifications.beginTurn();
    this.interruptSent = false;
    this.codexTurnId = undefined;
    ctx.setStage({ stage: 'waiting_for_harness_response', operation: 'turn/start' });
    const timer = setInterval(() => {
      this.process?.rememberDescendants();
      this.sync();
    }, SYNC_INTERVAL_MS);
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
      clearInterval(timer);
      this.inFlight = undefined;
      this.sync();
      await this.syncing;
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
    this.process?.child.stdin.end();
    let clean = true;
    if (this.process !== undefined) {
      await Promise.race([this.process.exited, delay(EXIT_WAIT_MS)]);
      clean = await this.process.terminate();
    }
    this.rpc?.close();
    await this.group?.close();
    clean = (await removeLaunchRoot(this.plan)) && clean;
    if (!clean) ctx.recorder.addLimitation('cleanup_failed');
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

  /** Resolves `check()` once it gives a value, re-checked on `wake`; raced against the exit and the signal. */
  private until<T>(
    ctx: HarnessContext,
    what: string,
    check: () => T | undefined,
    setWake: (wake: (() => void) | undefined) => void,
  ): Promise<T> {
    const proc = this.process as AgentProcess;
    return new Promise<T>((resolve, reject) => {
      let finished = false;
      const done = (): boolean => {
        if (finished) return false;
        finished = true;
        setWake(undefined);
        ctx.signal.removeEventListener('abort', onAbort);
        return true;
      };
      const test = (): void => {
        try {
          const value = check();
          if (value !== undefined && done()) resolve(value);
        } catch (error) {
          if (done()) reject(error);
        }
      };
      const onAbort = (): void => {
        if (done()) reject(ctx.signal.reason);
      };
      ctx.signal.addEventListener('abort', onAbort, { once: true });
      setWake(test);
      void proc.exited.then((exit) => {
        if (done()) reject(codexExited(exit, what));
      });
      if (ctx.signal.aborted) onAbort();
      else test();
    });
  }

  /** One request, raced against the exit and the execution's end. */
  private async call(ctx: HarnessContext, method: string, params: Params): Promise<Params> {
    const rpc = this.rpc as CodexRpc;
    const proc = this.process as AgentProcess;
    let onAbort = (): void => undefined;
    const aborted = new Promise<never>((_, reject) => {
      onAbort = () => reject(ctx.signal.reason);
      if (ctx.signal.aborted) onAbort();
      ctx.signal.addEventListener('abort', onAbort, { once: true });
    });
    try {
      const result = await Promise.race([rpc.request(method, params), aborted]);
      return isObject(result) ? result : {};
    } catch (error) {
      if (ctx.signal.aborted || (error instanceof M3Error && error.code === 'codex_request_failed')) throw error;
      const exit = await Promise.race([proc.exited, delay(CANCEL_WAIT_MS).then(() => undefined)]);
      if (exit !== undefined) throw codexExited(exit, method);
      throw error;
    } finally {
      ctx.signal.removeEventListener('abort', onAbort);
    }
  }

  /** Reads the proxies' captures now (serialized; a call while one runs queues one more). */
  private sync(): void {
    const group = this.group;
    if (group === undefined || this.syncQueued) return;
    this.syncQueued = true;
    this.syncing = this.syncing
      .then(() => {
        this.syncQueued = false;
        return group.sync();
      })
      .catch(() => undefined);
  }
}
