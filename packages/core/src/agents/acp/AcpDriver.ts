import { M3Error } from '../../errors';
import { newId } from '../../ids';
import { isObject, type JsonObject } from '../../json';
import type { HarnessContext, HarnessDriver, HarnessTurn, HarnessTurnEnd } from '../HarnessDriver';
import { TurnWireSync } from '../wire/TurnWireSync';
import { AgentProcess, type AgentExit } from '../process/AgentProcess';
import { abortRejection, delay, describeExit, endAgentProcess, exitWithin } from '../process/agentWaits';
import { removeLaunchRootNotingFailure } from '../process/launchPlan';
import { registerAcpClientRequests } from './acpClientRequests';
import { prepareAcpLaunch, removeLaunchRoot, type AcpLaunchPlan } from './acpEnvironment';
import { frameEvidence } from './acpFrameEvidence';
import { newlineFramedStream } from './acpFraming';
import type { ResolvedAcpSelection } from './acpOptions';
import { loadAcpSdk, type AcpClientConnection } from './acpSdk';
import { AcpUpdateRecorder } from './AcpUpdateRecorder';
import { applySessionOptions } from './acpSessionOptions';

/** ACP protocol version the kit speaks. */
export const ACP_PROTOCOL_VERSION = 1;
/** Bound on `session/cancel` and on waiting for the agent to leave on its own after stdin closes. */
const CANCEL_WAIT_MS = 500;
const EXIT_WAIT_MS = 250;

/** The error of an agent that exited (or could not start) while the kit waited for `method`. */
function agentExited(exit: AgentExit, method: string): M3Error {
  const how = describeExit(exit);
  return new M3Error('agent_exited', `the acp agent exited (${how}) while the kit waited for ${method}`, {
    exitCode: exit.code,
    signal: exit.signal,
    method,
  });
}

/**
 * The `acp` harness: launches the manifest's agent in its own process group with an allowlisted
 * environment and a temp home, speaks ACP over its stdio through the bundled SDK (every raw frame
 * kept as evidence), puts every MCP server behind the kit's capture layer (`AgentServerGroup`),
 * records the agent's `session/update`s, answers its requests, and cleans up in order.
 */
export class AcpDriver implements HarnessDriver {
  readonly runtime = 'acp' as const;
  private readonly connectionId = newId('conn');
  private plan: AcpLaunchPlan | undefined;
  private process: AgentProcess | undefined;
  private connection: AcpClientConnection | undefined;
  private wire: TurnWireSync | undefined;
  private updates: AcpUpdateRecorder | undefined;
  private agentSessionId = '';
  private prompt: Promise<unknown> | undefined;
  private cancelSent = false;
  private closing: Promise<void> | undefined;

  constructor(private readonly selection: ResolvedAcpSelection) {}

  async open(ctx: HarnessContext): Promise<void> {
    const sdk = loadAcpSdk();
    const { recorder } = ctx;
    ctx.setStage({ stage: 'harness_startup', operation: 'launch' });
    this.plan = await prepareAcpLaunch(this.selection.manifest, ctx.redactor);
    const { servers, policies } = ctx.options;
    const wire = new TurnWireSync(ctx);
    this.wire = wire;
    this.updates = new AcpUpdateRecorder(
      recorder,
      servers.map((s) => s.name),
      ctx.scope,
    );
    if (ctx.signal.aborted) {
      await removeLaunchRoot(this.plan);
      throw ctx.signal.reason;
    }
    const proc = new AgentProcess(this.plan, recorder, ctx.redactor, ctx.scope);
    this.process = proc;
    if (proc.pid === null) throw agentExited(await proc.exited, 'its start');
    const observer = frameEvidence(recorder, ctx.scope, this.connectionId);
    const stream = newlineFramedStream(proc.child.stdin, proc.child.stdout, observer);
    const app = sdk.client({ name: 'sf-m3' }).onNotification('session/update', (c) => {
      this.updates?.handle(c.params);
      wire.sync();
    });
    registerAcpClientRequests(app, {
      recorder,
      policies,
      fileSystem: this.selection.fileSystem,
      RequestError: sdk.RequestError,
      connectionId: this.connectionId,
      scope: ctx.scope,
    });
    this.connection = app.connect(stream);

    ctx.setStage({ stage: 'harness_startup', operation: 'initialize' });
    const init = await this.call<Record<string, unknown>>(ctx, 'initialize', {
      protocolVersion: ACP_PROTOCOL_VERSION,
      clientCapabilities: {
        fs: {
          readTextFile: this.selection.fileSystem.readTextFile !== undefined,
          writeTextFile: this.selection.fileSystem.writeTextFile !== undefined,
        },
        terminal: false,
      },
      clientInfo: { name: 'sf-m3', version: '0.1.0' },
    });
    if (init.protocolVersion !== ACP_PROTOCOL_VERSION) {
      throw new M3Error(
        'acp_protocol_version_mismatch',
        `the agent answered initialize with protocol version ${JSON.stringify(init.protocolVersion)}; the kit speaks ACP version 1`,
        {},
      );
    }
    ctx.setStage({ stage: 'harness_startup', operation: 'start MCP capture proxies' });
    const mcpServers = await wire.group.start(ctx.signal);
    ctx.setStage({ stage: 'harness_startup', operation: 'session/new' });
    const created = await this.call<Record<string, unknown>>(ctx, 'session/new', {
      cwd: this.plan.workspace,
      mcpServers,
    });
    if (typeof created.sessionId !== 'string' || created.sessionId === '') {
      throw new M3Error('acp_protocol_error', 'the agent answered session/new without a sessionId', {});
    }
    this.agentSessionId = created.sessionId;
    recorder.record('session.created', {
      sessionId: ctx.sessionId,
      phase: 'startup',
      origin: 'harness_reported',
      payload: {
        sessionId: ctx.sessionId,
        agentSessionId: created.sessionId,
        protocolVersion: String(init.protocolVersion),
        agent: isObject(init.agentInfo) ? (init.agentInfo as JsonObject) : null,
        agentCapabilities: isObject(init.agentCapabilities) ? (init.agentCapabilities as JsonObject) : null,
        modes: isObject(created.modes) ? (created.modes as JsonObject) : null,
      },
    });
    await applySessionOptions(this.selection, created, (method, params) => {
      ctx.setStage({ stage: 'harness_startup', operation: method });
      return this.call(ctx, method, { sessionId: this.agentSessionId, ...params });
    });
    proc.rememberDescendants();
    await wire.settle();
  }

  async runTurn(ctx: HarnessContext, turn: HarnessTurn): Promise<HarnessTurnEnd> {
    const updates = this.updates as AcpUpdateRecorder;
    const wire = this.wire as TurnWireSync;
    await wire.beginTurn(turn.turnId, () => this.process);
    updates.beginTurn();
    this.cancelSent = false;
    ctx.setStage({ stage: 'waiting_for_harness_response', operation: 'session/prompt' });
    const params = { sessionId: this.agentSessionId, prompt: [{ type: 'text', text: turn.prompt }] };
    const prompt = this.call<Record<string, unknown>>(ctx, 'session/prompt', params);
    this.prompt = prompt.catch(() => undefined);
    try {
      const response = await prompt;
      const stopReason = typeof response.stopReason === 'string' ? response.stopReason : null;
      return this.turnEnd(updates.turnText, stopReason);
    } catch (error) {
      // What the agent streamed before the turn broke off is kept (partial) in every case.
      const text = updates.turnText === '' ? null : updates.turnText;
      // The execution ended (deadline, cancel) while the agent had not answered: the session
      // gives the turn its outcome.
      if (ctx.signal.aborted) return { text, stopReason: null };
      const failure = error instanceof M3Error ? error : new M3Error('acp_connection_lost', String(error));
      const terminal = failure.code !== 'acp_request_failed';
      if (terminal) ctx.recorder.addLimitation('partial_trace');
      return { text, stopReason: null, error: failure, terminal };
    } finally {
      this.prompt = undefined;
      await wire.endTurn();
    }
  }

  async cancelTurn(): Promise<void> {
    if (this.prompt === undefined || this.connection === undefined || this.cancelSent) return;
    this.cancelSent = true;
    const notify = this.connection.agent
      .notify('session/cancel', { sessionId: this.agentSessionId })
      .catch(() => undefined);
    await Promise.race([Promise.all([notify, this.prompt]), delay(CANCEL_WAIT_MS)]);
  }

  close(ctx: HarnessContext): Promise<void> {
    this.closing ??= this.cleanup(ctx);
    return this.closing;
  }

  /** `session/cancel` if a turn is in flight, close stdin, SIGTERM/SIGKILL the group, close the proxies, remove temp dirs. */
  private async cleanup(ctx: HarnessContext): Promise<void> {
    await this.cancelTurn().catch(() => undefined);
    this.connection?.close();
    const clean = await endAgentProcess(this.process, EXIT_WAIT_MS);
    await this.wire?.group.close();
    await removeLaunchRootNotingFailure(ctx.recorder, this.plan, clean);
  }

  private turnEnd(text: string, stopReason: string | null): HarnessTurnEnd {
    if (stopReason === 'end_turn') return { text, stopReason };
    if (stopReason === 'cancelled') return { text, stopReason, outcome: 'cancelled' };
    const code = stopReason === 'refusal' ? 'model_refused' : 'acp_turn_incomplete';
    return {
      text,
      stopReason,
      error: new M3Error(code, `the agent ended the turn with stopReason ${JSON.stringify(stopReason)}`, {
        stopReason,
      }),
    };
  }

  /**
   * One request to the agent, raced against the agent's exit and the execution's end. A JSON-RPC
   * error answer becomes `acp_request_failed`; a lost connection `agent_exited` (with the exit).
   */
  private async call<T>(ctx: HarnessContext, method: string, params: unknown): Promise<T> {
    const connection = this.connection as AcpClientConnection;
    const proc = this.process as AgentProcess;
    const abort = abortRejection(ctx.signal);
    try {
      return await Promise.race([connection.agent.request<T>(method, params), abort.aborted]);
    } catch (error) {
      if (ctx.signal.aborted) throw error;
      const code = (error as { code?: unknown }).code;
      if (typeof code === 'number' && proc.exit === undefined && !connection.signal.aborted) {
        throw new M3Error(
          'acp_request_failed',
          `the agent answered ${method} with JSON-RPC error ${code}: ${(error as Error).message}`,
          { method, jsonrpcCode: code },
        );
      }
      const exit = await exitWithin(proc, CANCEL_WAIT_MS);
      if (exit !== undefined) throw agentExited(exit, method);
      throw new M3Error('acp_connection_lost', `the connection to the acp agent broke during ${method}`, { method });
    } finally {
      abort.dispose();
    }
  }
}
