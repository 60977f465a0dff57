import { M3Error } from '../../errors';
import { newId } from '../../ids';
import type { HarnessContext, HarnessDriver, HarnessTurn, HarnessTurnEnd } from '../HarnessDriver';
import { NativeEventRecorder } from '../native/NativeEventRecorder';
import { prepareNativeLaunch } from '../native/nativeLaunch';
import type { ResolvedNativeSelection } from '../native/nativeSelection';
import { nativeToolSelection } from '../native/nativeToolSelection';
import { AgentProcess } from '../process/AgentProcess';
import { abortRejection, delay, endAgentProcess } from '../process/agentWaits';
import { removeLaunchRootNotingFailure, type AgentLaunchPlan } from '../process/launchPlan';
import { TurnWireSync } from '../wire/TurnWireSync';
import { PiEventProjection } from './PiEventProjection';
import { PI_DEFAULTS } from './piDefaults';
import { piLaunchExtras } from './piLaunch';
import { parsePiModel, piKeyEnv, type PiModel } from './piModel';
import { piExited, PiRpc, type PiFrame } from './piRpc';
import { piTurnEnd } from './piTurnEnd';
import { isObject } from '../../json';

/** Bound on `abort` reaching `agent_end`, and on Pi leaving on its own once stdin closes. */
const CANCEL_WAIT_MS = 1000;
const EXIT_WAIT_MS = 1000;
const DIALOGS = new Set(['select', 'confirm', 'input', 'editor']);

/**
 * The `pi` harness: one `pi --mode rpc` process per session (own process group, allowlisted env,
 * temp home and config), every MCP server behind the kit's capture layer and bridged into Pi tools
 * by the kit's Pi extension, Pi's events projected into the trace, `abort` to cancel.
 */
export class PiDriver implements HarnessDriver {
  readonly runtime = 'pi' as const;
  private readonly model: PiModel;
  private readonly connectionId = newId('conn');
  private plan: AgentLaunchPlan | undefined;
  private process: AgentProcess | undefined;
  private rpc: PiRpc | undefined;
  private wire: TurnWireSync | undefined;
  private projection: PiEventProjection | undefined;
  private agentEnd: { promise: Promise<void>; resolve: () => void } | undefined;
  private closing: Promise<void> | undefined;

  constructor(
    private readonly selection: ResolvedNativeSelection,
    model: string,
  ) {
    this.model = parsePiModel(model);
  }

  async open(ctx: HarnessContext): Promise<void> {
    const { recorder, redactor } = ctx;
    ctx.setStage({ stage: 'harness_startup', operation: 'launch' });
    const { servers, policies } = ctx.options;
    const wire = new TurnWireSync(ctx);
    this.wire = wire;
    const events = new NativeEventRecorder(recorder, ctx.scope, this.connectionId);
    const projection = new PiEventProjection(
      events,
      servers.map((s) => s.name),
    );
    this.projection = projection;
    const keyEnv = piKeyEnv(this.selection.apiKeyEnv, this.model.provider);
    const launch = await prepareNativeLaunch(
      { ...this.selection, apiKeyEnv: keyEnv },
      PI_DEFAULTS,
      async (dirs, apiKey, route) => {
        ctx.setStage({ stage: 'harness_startup', operation: 'start MCP capture proxies' });
        const descriptors = await wire.group.start(ctx.signal);
        const tools = nativeToolSelection(servers, policies);
        const bridge = { schemaVersion: 1 as const, servers: descriptors, tools };
        return piLaunchExtras(this.selection, this.model, keyEnv, dirs, apiKey, bridge, route);
      },
      redactor,
      ctx.cassette,
    );
    this.plan = launch.plan;
    if (ctx.signal.aborted) throw ctx.signal.reason;
    ctx.setStage({ stage: 'harness_startup', operation: 'launch' });
    const proc = new AgentProcess(this.plan, recorder, redactor, ctx.scope);
    this.process = proc;
    if (proc.pid === null) throw piExited(await proc.exited, 'its start');
    const rpc = new PiRpc(proc, events, (frame) => this.onEvent(frame));
    this.rpc = rpc;

    ctx.setStage({ stage: 'harness_startup', operation: 'get_state' });
    const state = await rpc.request({ type: 'get_state' }, ctx.signal);
    if (!state.success || !isObject(state.data)) {
      throw new M3Error('pi_protocol_error', `pi answered get_state with an error: ${state.error ?? 'no data'}`, {});
    }
    // Pi binds its extensions (session_start, where ours reports) before it reads any command, so
    // the status line comes before this answer or not at all.
    if (projection.status === undefined) {
      throw new M3Error(
        'pi_extension_not_loaded',
        "pi started without reporting the sf-m3 MCP extension: the CLI must load extensions given with --extension (Pi 0.73 or later); its stderr is in the trace's process.exited",
        {},
      );
    }
    const model = isObject(state.data.model) ? state.data.model : {};
    const reported =
      typeof model.provider === 'string' && typeof model.id === 'string' ? `${model.provider}/${model.id}` : null;
    events.sessionCreated({
      agentSessionId: typeof state.data.sessionId === 'string' ? state.data.sessionId : null,
      model: reported ?? `${this.model.provider}/${this.model.id}`,
      agent: { name: 'pi', version: projection.status.piVersion },
    });
    proc.rememberDescendants();
    await wire.settle();
  }

  async runTurn(ctx: HarnessContext, turn: HarnessTurn): Promise<HarnessTurnEnd> {
    const rpc = this.rpc as PiRpc;
    const proc = this.process as AgentProcess;
    const projection = this.projection as PiEventProjection;
    const wire = this.wire as TurnWireSync;
    await wire.beginTurn(turn.turnId, () => proc);
    projection.beginTurn();
    let resolve = (): void => undefined;
    const promise = new Promise<void>((r) => (resolve = r));
    this.agentEnd = { promise, resolve };
    ctx.setStage({ stage: 'waiting_for_harness_response', operation: 'prompt' });
    const abort = abortRejection(ctx.signal);
    try {
      const response = await rpc.request({ type: 'prompt', message: turn.prompt }, ctx.signal);
      if (!response.success) {
        const error = new M3Error(
          'pi_request_failed',
          `pi refused the prompt: ${response.error ?? 'no reason given'}`,
          {
            command: 'prompt',
          },
        );
        return { text: null, stopReason: null, error };
      }
      const exited = proc.exited.then((exit) => Promise.reject(piExited(exit, 'the end of the turn (agent_end)')));
      exited.catch(() => undefined);
      await Promise.race([promise, exited, abort.aborted]);
      return piTurnEnd(projection.lastMessage);
    } catch (error) {
      const text = projection.partialText;
      if (ctx.signal.aborted) return { text, stopReason: null };
      const failure = error instanceof M3Error ? error : new M3Error('pi_connection_lost', String(error));
      ctx.recorder.addLimitation('partial_trace');
      return { text, stopReason: null, error: failure, terminal: true };
    } finally {
      abort.dispose();
      this.agentEnd = undefined;
      await wire.endTurn();
    }
  }

  async cancelTurn(): Promise<void> {
    const turn = this.agentEnd;
    if (turn === undefined || this.rpc === undefined) return;
    const sent = this.rpc.request({ type: 'abort' }, AbortSignal.timeout(CANCEL_WAIT_MS)).catch(() => undefined);
    await Promise.race([Promise.all([sent, turn.promise]), delay(CANCEL_WAIT_MS)]);
  }

  close(ctx: HarnessContext): Promise<void> {
    this.closing ??= this.cleanup(ctx);
    return this.closing;
  }

  /** `abort` if a turn is in flight, close stdin, SIGTERM/SIGKILL the group, close the proxies, remove temp dirs. */
  private async cleanup(ctx: HarnessContext): Promise<void> {
    await this.cancelTurn().catch(() => undefined);
    const clean = await endAgentProcess(this.process, EXIT_WAIT_MS);
    this.rpc?.close();
    await this.wire?.group.close();
    await removeLaunchRootNotingFailure(ctx.recorder, this.plan, clean);
  }

  private onEvent(frame: PiFrame): void {
    this.projection?.handle(frame);
    if (frame.type === 'agent_end') this.agentEnd?.resolve();
    if (frame.type === 'tool_execution_start' || frame.type === 'tool_execution_end') this.wire?.sync();
    // The kit's extension asks nothing; a dialog from anything else is dismissed so Pi never waits on it.
    if (frame.type === 'extension_ui_request' && typeof frame.method === 'string' && DIALOGS.has(frame.method)) {
      void this.rpc?.send({ type: 'extension_ui_response', id: frame.id, cancelled: true });
    }
  }
}
