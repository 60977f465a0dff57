import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { M3Error } from '../../errors';
import { newId } from '../../ids';
import { isObject, type JsonObject } from '../../json';
import type { HarnessContext, HarnessDriver, HarnessTurn, HarnessTurnEnd } from '../HarnessDriver';
import { NativeEventRecorder } from '../native/NativeEventRecorder';
import { CASSETTE_REPLAY_KEY } from '../../cassettes/clients/cassetteReplayKey';
import { prepareNativeLaunch } from '../native/nativeLaunch';
import type { NativeHarnessDefaults, ResolvedNativeSelection } from '../native/nativeSelection';
import { nativeToolSelection } from '../native/nativeToolSelection';
import { AgentProcess } from '../process/AgentProcess';
import { delay, exitWithin } from '../process/agentWaits';
import { removeLaunchRootNotingFailure, type AgentLaunchPlan } from '../process/launchPlan';
import { TurnWireSync } from '../wire/TurnWireSync';
import { OpencodeClient } from './OpencodeClient';
import { OpencodeEventStream } from './OpencodeEventStream';
import { OpencodeHistory } from './OpencodeHistory';
import { OPENCODE_SWITCHES, opencodeConfig, parseOpencodeModel, type OpencodeModelRef } from './opencodeConfig';
import { opencodeExited, waitForListening } from './opencodeListening';
import { OpencodeMessageRecorder, type OpencodeTurnFacts } from './OpencodeMessageRecorder';

/** How often the session history is read while a turn runs and the event stream is not connected. */
const POLL_INTERVAL_MS = 500;
/** Bound on opening the event stream. */
const STREAM_OPEN_MS = 2000;
/** Bounds on `POST /session/{id}/abort`, on the turn settling after it, and on a late history read. */
const ABORT_WAIT_MS = 2000;
const SETTLE_WAIT_MS = 3000;
const HISTORY_WAIT_MS = 1500;
/** Bound on `POST /global/dispose` at close (OpenCode then closes its MCP clients, so the proxies finish their capture). */
const DISPOSE_WAIT_MS = 2000;

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
  private wire: TurnWireSync | undefined;
  private client: OpencodeClient | undefined;
  private messages: OpencodeMessageRecorder | undefined;
  private history: OpencodeHistory | undefined;
  private stream: OpencodeEventStream | undefined;
  private events: NativeEventRecorder | undefined;
  private agentSessionId = '';
  private turn: Promise<unknown> | undefined;
  private abortSent = false;
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
    const wire = new TurnWireSync(ctx);
    this.wire = wire;
    const tools = nativeToolSelection(servers, policies);
    this.messages = new OpencodeMessageRecorder(events, tools);
    ctx.setStage({ stage: 'harness_startup', operation: 'start MCP capture proxies' });
    const descriptors = await wire.group.start(ctx.signal);
    const password = randomBytes(24).toString('hex');
    redactor.addCanary(password);
    ctx.setStage({ stage: 'harness_startup', operation: 'launch' });
    const { apiKeyEnv } = this.selection;
    const launch = await prepareNativeLaunch(
      this.selection,
      this.defaults,
      async (dirs, apiKey, route) => {
        const config = opencodeConfig({
          model: this.model,
          baseUrl: this.selection.baseUrl,
          ...(route !== undefined && { proxyUrl: route.baseUrl.replace(/\/+$/, '') }),
          // A built-in provider reads its own key variable: the replay placeholder (never a real key) goes here.
          ...(apiKey === CASSETTE_REPLAY_KEY && { proxyKey: CASSETTE_REPLAY_KEY }),
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
      ctx.cassette,
    );
    this.plan = launch.plan;
    if (ctx.signal.aborted) throw ctx.signal.reason;
    const proc = new AgentProcess(this.plan, recorder, redactor, ctx.scope);
    this.process = proc;
    if (proc.pid === null) throw opencodeExited(await proc.exited, 'start', 'at its start');
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
    const messages = this.messages;
    this.stream = new OpencodeEventStream({
      origin,
      directory: this.plan.workspace,
      authorization: this.client.authorization,
      sessionId: session.id,
      onMessages: (known) => messages.recordTools(known),
      events,
    });
    ctx.setStage({ stage: 'harness_startup', operation: 'GET /event' });
    const live = await this.stream.open(AbortSignal.any([ctx.signal, AbortSignal.timeout(STREAM_OPEN_MS)]));
    if (!live) ctx.logger.debug('the OpenCode event stream did not open: reading the history on a timer');
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
    await wire.settle();
  }

  async runTurn(ctx: HarnessContext, turn: HarnessTurn): Promise<HarnessTurnEnd> {
    const wire = this.wire as TurnWireSync;
    await wire.beginTurn(turn.turnId, () => this.process);
    this.abortSent = false;
    ctx.setStage({ stage: 'waiting_for_harness_response', operation: 'POST /session/{id}/message' });
    const history = this.history as OpencodeHistory;
    const stream = this.stream as OpencodeEventStream;
    const poll = setInterval(() => {
      if (!stream.connected) history.poll(ctx.signal);
    }, POLL_INTERVAL_MS);
    history.messages.beginTurn();
    const body = { model: this.model, parts: [{ type: 'text', text: turn.prompt }] };
    const running = this.turnOf(ctx, body, history);
    this.turn = running.catch(() => undefined);
    try {
      return await running;
    } finally {
      clearInterval(poll);
      this.turn = undefined;
      await wire.endTurn();
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
    this.stream?.close();
    if (this.client !== undefined && this.process?.exit === undefined) {
      const signal = AbortSignal.timeout(DISPOSE_WAIT_MS);
      await this.client.call('POST', '/global/dispose', undefined, signal).catch(() => undefined);
    }
    let clean = true;
    if (this.process !== undefined) {
      this.process.rememberDescendants();
      clean = await this.process.terminate();
    }
    await this.wire?.group.close();
    await removeLaunchRootNotingFailure(ctx.recorder, this.plan, clean);
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
      const exit = await exitWithin(proc, 500);
      if (exit !== undefined) throw opencodeExited(exit, operation, `while the kit waited for ${operation}`);
      throw error;
    }
  }
}
