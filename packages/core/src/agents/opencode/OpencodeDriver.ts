import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { M3Error } from '../../errors';
import { newId } from '../../ids';
import type { JsonObject } from '../../json';
import type { HarnessContext, HarnessDriver, HarnessTurn, HarnessTurnEnd } from '../HarnessDriver';
import { NativeEventRecorder } from '../native/NativeEventRecorder';
import { prepareNativeLaunch } from '../native/nativeLaunch';
import type { NativeHarnessDefaults, ResolvedNativeSelection } from '../native/nativeSelection';
import { nativeToolSelection } from '../native/nativeToolSelection';
import { AgentProcess, type AgentExit } from '../process/AgentProcess';
import { removeLaunchRoot, type AgentLaunchPlan } from '../process/launchPlan';
import { AgentServerGroup } from '../wire/AgentServerGroup';
import { OpencodeClient } from './OpencodeClient';
import { OpencodeHistory } from './OpencodeHistory';
import { OPENCODE_SWITCHES, opencodeConfig, parseOpencodeModel, type OpencodeModelRef } from './opencodeConfig';
import { waitForListening } from './opencodeListening';
import { OpencodeMessageRecorder, type OpencodeTurnFacts } from './OpencodeMessageRecorder';

/** How often wire evidence is read while a turn runs. */
const SYNC_INTERVAL_MS = 100;
/** How often the session history is read while a turn runs. */
const POLL_INTERVAL_MS = 500;
/** Bounds on `POST /session/{id}/abort`, on the turn settling after it, and on a late history read. */
const ABORT_WAIT_MS = 2000;
const SETTLE_WAIT_MS = 3000;
const HISTORY_WAIT_MS = 1500;
/** Bound on `POST /global/dispose` at close (OpenCode then closes its MCP clients, so the proxies finish their capture). */
const DISPOSE_WAIT_MS = 2000;

const delay = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms).unref());
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function exitedError(exit: AgentExit, operation: string): M3Error {
  const how = exit.spawnError ?? (exit.signal !== null ? `signal ${exit.signal}` : `exit code ${String(exit.code)}`);
  return new M3Error('agent_exited', `opencode exited (${how}) while the kit waited for ${operation}`, {
    exitCode: exit.code,
    signal: exit.signal,
    method: operation,
  });
}

/**
 * The `opencode` harness: one `opencode serve` per session on a loopback port (basic auth with a
 * per-launch password), a generated `OPENCODE_CONFIG` (provider at `baseUrl`, the capture proxies
 * as `mcp` servers, the tool policy as its `tools`/`permission` maps, built-in tools off), a
 * session per execution, a `POST /session/{id}/message` per turn, the turn's assistant messages
 * read back from the session history, `POST /session/{id}/abort` to cancel.
 */
export class OpencodeDriver implements HarnessDriver {
  readonly runtime = 'opencode' as const;
  private readonly connectionId = newId('conn');
  private readonly model: OpencodeModelRef;
  private plan: AgentLaunchPlan | undefined;
  private process: AgentProcess | undefined;
  private group: AgentServerGroup | undefined;
  private client: OpencodeClient | undefined;
  private messages: OpencodeMessageRecorder | undefined;
  private history: OpencodeHistory | undefined;
  private events: NativeEventRecorder | undefined;
  private agentSessionId = '';
  private wireTurnId: string | undefined;
  private turn: Promise<unknown> | undefined;
  private abortSent = false;
  private syncing: Promise<void> = Promise.resolve();
  private syncQueued = false;
  private closing: Promise<void> | undefined;

  constructor(
    private readonly selection: ResolvedNativeSelection,
    modelName: string,
    private readonly defaults: NativeHarnessDefaults,
  ) {
    this.model = parseOpencodeModel(modelName);
  }

  async open(ctx: HarnessContext): Promise<void> {
    const { recorder, redactor } = ctx;
    const { servers, policies } = ctx.options;
    const events = new NativeEventRecorder(recorder, ctx.scope, this.connectionId);
    this.events = events;
    const scope = () => ({
      sessionId: ctx.sessionId,
      ...(this.wireTurnId !== undefined && { turnId: this.wireTurnId }),
    });
    this.group = new AgentServerGroup({ servers, policies, recorder, redactor, logger: ctx.logger, scope });
    const tools = nativeToolSelection(servers, policies);
    this.messages = new OpencodeMessageRecorder(events, tools);
    ctx.setStage({ stage: 'harness_startup', operation: 'start MCP capture proxies' });
    const descriptors = await this.group.start(ctx.signal);
    const password = randomBytes(24).toString('hex');
    redactor.addCanary(password);
    ctx.setStage({ stage: 'harness_startup', operation: 'launch' });
    const { apiKeyEnv } = this.selection;
    const launch = await prepareNativeLaunch(
      this.selection,
      this.defaults,
      async (dirs, apiKey) => {
        const config = opencodeConfig({
          model: this.model,
          baseUrl: this.selection.baseUrl,
          apiKeyEnv,
          servers: descriptors,
          tools,
        });
        const path = join(dirs.configDir, 'opencode.json');
        await writeFile(path, JSON.stringify(config, null, 2), { mode: 0o600, flag: 'wx' });
        return {
          args: ['serve', '--hostname', '127.0.0.1', '--port', '0'],
          env: {
            ...OPENCODE_SWITCHES,
            OPENCODE_CONFIG: path,
            OPENCODE_SERVER_PASSWORD: password,
            ...(apiKey !== undefined && apiKeyEnv !== null && { [apiKeyEnv]: apiKey }),
          },
        };
      },
      redactor,
    );
    this.plan = launch.plan;
    if (ctx.signal.aborted) throw ctx.signal.reason;
    const proc = new AgentProcess(this.plan, recorder, redactor, ctx.scope);
    this.process = proc;
    if (proc.pid === null) throw exitedError(await proc.exited, 'its start');
    ctx.setStage({ stage: 'harness_startup', operation: 'serve' });
    const origin = await waitForListening(proc.child.stdout, proc.exited, ctx.signal);
    this.client = new OpencodeClient({ origin, directory: this.plan.workspace, password, events });

    ctx.setStage({ stage: 'harness_startup', operation: 'POST /session' });
    const session = await this.call<Record<string, unknown>>(ctx, 'POST', '/session', {});
    if (typeof session.id !== 'string' || session.id === '') {
      throw new M3Error('opencode_protocol_error', 'the OpenCode server answered POST /session without an id', {});
    }
    this.agentSessionId = session.id;
    this.history = new OpencodeHistory(this.client, session.id, this.messages);
    let version = typeof session.version === 'string' ? session.version : undefined;
    if (version === undefined) {
      const health = await this.call<Record<string, unknown>>(ctx, 'GET', '/global/health', undefined);
      version = typeof health.version === 'string' ? health.version : undefined;
    }
    ctx.setStage({ stage: 'harness_startup', operation: 'GET /mcp' });
    const mcp = await this.call<unknown>(ctx, 'GET', '/mcp', undefined);
    events.sessionCreated({
      agentSessionId: session.id,
      model: `${this.model.providerID}/${this.model.modelID}`,
      agent: { name: 'opencode', ...(version !== undefined && { version }) },
    });
    if (isObject(mcp)) events.providerEvent('mcp_status', { servers: mcp as JsonObject });
    proc.rememberDescendants();
    this.sync();
    await this.syncing;
  }

  async runTurn(ctx: HarnessContext, turn: HarnessTurn): Promise<HarnessTurnEnd> {
    this.sync();
    await this.syncing;
    this.wireTurnId = turn.turnId;
    this.abortSent = false;
    ctx.setStage({ stage: 'waiting_for_harness_response', operation: 'POST /session/{id}/message' });
    const timer = setInterval(() => {
      this.process?.rememberDescendants();
      this.sync();
    }, SYNC_INTERVAL_MS);
    const history = this.history as OpencodeHistory;
    const poll = setInterval(() => history.poll(ctx.signal), POLL_INTERVAL_MS);
    history.messages.beginTurn();
    const body = { model: this.model, parts: [{ type: 'text', text: turn.prompt }] };
    const running = this.turnOf(ctx, body, history);
    this.turn = running.catch(() => undefined);
    try {
      return await running;
    } finally {
      clearInterval(timer);
      clearInterval(poll);
      this.turn = undefined;
      this.sync();
      await this.syncing;
    }
  }

  private async turnOf(ctx: HarnessContext, body: unknown, history: OpencodeHistory): Promise<HarnessTurnEnd> {
    const path = `/session/${this.agentSessionId}/message`;
    let failure: unknown;
    try {
      await this.call(ctx, 'POST', path, body);
    } catch (error) {
      failure = error;
    }
    // The turn's messages come from the history (the answer holds only the last one): a last full
    // read, after the execution ended (deadline, cancel) on a short bound of its own.
    const signal = ctx.signal.aborted ? AbortSignal.timeout(HISTORY_WAIT_MS) : ctx.signal;
    const facts = await history.final(signal).catch(() => undefined);
    const text = facts?.text ?? history.messages.turnFacts().text;
    if (ctx.signal.aborted) return { text, stopReason: null };
    if (failure !== undefined) {
      const error = failure instanceof M3Error ? failure : new M3Error('opencode_connection_lost', String(failure));
      const terminal = error.code === 'agent_exited' || error.code === 'opencode_connection_lost';
      if (terminal) ctx.recorder.addLimitation('partial_trace');
      return { text, stopReason: null, error, terminal };
    }
    return this.turnEnd(facts);
  }

  private turnEnd(facts: OpencodeTurnFacts | undefined): HarnessTurnEnd {
    if (facts === undefined) {
      return {
        text: null,
        stopReason: null,
        error: new M3Error('opencode_protocol_error', 'the OpenCode session history could not be read', {}),
      };
    }
    const { text, finish, error } = facts;
    if (error?.name === 'MessageAbortedError') return { text, stopReason: 'aborted', outcome: 'cancelled' };
    if (error !== null || finish === 'error' || finish === 'failed') {
      const name = error?.name ?? finish ?? 'error';
      return {
        text,
        stopReason: finish,
        error: new M3Error('opencode_turn_failed', `OpenCode ended the turn with ${name}: ${error?.message ?? ''}`, {
          name,
          finish,
        }),
      };
    }
    return { text, stopReason: finish };
  }

  async cancelTurn(): Promise<void> {
    if (this.turn === undefined || this.client === undefined || this.abortSent) return;
    this.abortSent = true;
    const path = `/session/${this.agentSessionId}/abort`;
    const answer = await this.client
      .call('POST', path, undefined, AbortSignal.timeout(ABORT_WAIT_MS))
      .catch((error: unknown) => ({ failed: error instanceof M3Error ? error.code : 'aborted' }));
    this.events?.providerEvent('session_abort', { answer: answer as JsonObject });
    await Promise.race([this.turn, delay(SETTLE_WAIT_MS)]);
  }

  close(ctx: HarnessContext): Promise<void> {
    this.closing ??= this.cleanup(ctx);
    return this.closing;
  }

  /**
   * Abort a turn in flight, ask OpenCode to dispose its instances (its MCP clients close, so the
   * capture proxies end cleanly), SIGTERM/SIGKILL the server's process group, close the proxies,
   * remove temp dirs.
   */
  private async cleanup(ctx: HarnessContext): Promise<void> {
    await this.cancelTurn().catch(() => undefined);
    if (this.client !== undefined && this.process?.exit === undefined) {
      const signal = AbortSignal.timeout(DISPOSE_WAIT_MS);
      await this.client.call('POST', '/global/dispose', undefined, signal).catch(() => undefined);
    }
    let clean = true;
    if (this.process !== undefined) {
      this.process.rememberDescendants();
      clean = await this.process.terminate();
    }
    await this.group?.close();
    clean = (await removeLaunchRoot(this.plan)) && clean;
    if (!clean) ctx.recorder.addLimitation('cleanup_failed');
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

  /** One API call raced against the server's exit: a broken connection of an exited server is `agent_exited`. */
  private async call<T>(ctx: HarnessContext, method: 'GET' | 'POST', path: string, body: unknown): Promise<T> {
    const client = this.client as OpencodeClient;
    const proc = this.process as AgentProcess;
    const operation = `${method} ${path.replace(this.agentSessionId || '\0', '{id}')}`;
    try {
      return await client.call<T>(method, path, body, ctx.signal);
    } catch (error) {
      if (ctx.signal.aborted) throw error;
      const exit = await Promise.race([proc.exited, delay(500).then(() => undefined)]);
      if (exit !== undefined) throw exitedError(exit, operation);
      throw error;
    }
  }
}
