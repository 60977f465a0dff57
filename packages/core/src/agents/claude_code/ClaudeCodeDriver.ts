import { randomUUID } from 'node:crypto';
import { M3Error, TransportStartupError } from '../../errors';
import { newId } from '../../ids';
import type { HarnessContext, HarnessDriver, HarnessTurn, HarnessTurnEnd } from '../HarnessDriver';
import { NativeEventRecorder } from '../native/NativeEventRecorder';
import { prepareNativeLaunch } from '../native/nativeLaunch';
import type { ResolvedNativeSelection } from '../native/nativeSelection';
import { nativeToolSelection } from '../native/nativeToolSelection';
import { readNdjsonLines, writeNdjsonLine } from '../native/ndjsonLines';
import { AgentProcess, type AgentExit } from '../process/AgentProcess';
import { abortRejection, delay, describeExit, endAgentProcess, exitWithin } from '../process/agentWaits';
import { removeLaunchRootNotingFailure, type AgentLaunchPlan } from '../process/launchPlan';
import { TurnWireSync } from '../wire/TurnWireSync';
import { CLAUDE_CODE_DEFAULTS } from './claudeCodeDefaults';
import { claudeApiKey, claudeLaunchExtras, claudeServerKeys } from './claudeCodeLaunch';
import { claudeScriptExecutable } from './claudeScriptExecutable';
import { claudeTurnEnd } from './claudeTurnEnd';
import { ClaudeStreamRecorder, type ClaudeTurnResult } from './ClaudeStreamRecorder';

/** Bound on waiting for the `result` after an interrupt, and for the CLI to leave after stdin closes. */
const CANCEL_WAIT_MS = 1000;
const EXIT_WAIT_MS = 500;

/** The error of a CLI that exited (or could not start) while the kit waited for `what`. */
function cliExited(exit: AgentExit, what: string): M3Error {
  const how = describeExit(exit);
  return new M3Error('agent_exited', `Claude Code exited (${how}) while the kit waited for ${what}`, {
    exitCode: exit.code,
    signal: exit.signal,
    harness: 'claude_code',
  });
}

/** The missing-executable error, with the way to run Claude Code on Node 20. */
function withNode20Hint(error: unknown): unknown {
  if (!(error instanceof TransportStartupError)) return error;
  return new TransportStartupError(
    `${error.message}; on Node 20 the cli.js of @anthropic-ai/claude-agent-sdk works as executable (the current @anthropic-ai/claude-code needs Node 22 or its native binary)`,
    error.details,
  );
}

/**
 * The `claude_code` harness (contract §18): one `claude -p` process per session speaking stream-json
 * on stdio, every MCP server behind the kit's capture proxies (a generated `--mcp-config`,
 * `--strict-mcp-config`), built-in tools off (`--tools ""`), the run's tool policy as
 * `--allowedTools` with `--permission-mode dontAsk` (no call waits for a prompt; others are
 * refused by the CLI). A turn is one stream-json user message and ends with the `result` message;
 * cancel is the stream-json `interrupt` control request, then the process group is ended.
 */
export class ClaudeCodeDriver implements HarnessDriver {
  readonly runtime = 'claude_code' as const;
  private readonly connectionId = newId('conn');
  private plan: AgentLaunchPlan | undefined;
  private process: AgentProcess | undefined;
  private wire: TurnWireSync | undefined;
  private events: NativeEventRecorder | undefined;
  private stream: ClaudeStreamRecorder | undefined;
  private stopReading: (() => void) | undefined;
  private waiting: ((result: ClaudeTurnResult) => void) | undefined;
  private turnDone: Promise<unknown> | undefined;
  private cancelSent = false;
  private closing: Promise<void> | undefined;

  constructor(
    private readonly selection: ResolvedNativeSelection,
    private readonly model: string,
  ) {}

  async open(ctx: HarnessContext): Promise<void> {
    const { recorder, options } = ctx;
    ctx.setStage({ stage: 'harness_startup', operation: 'launch' });
    const keys = claudeServerKeys(options.servers.map((s) => s.name));
    const wire = new TurnWireSync(ctx);
    this.wire = wire;
    const events = new NativeEventRecorder(recorder, ctx.scope, this.connectionId);
    this.events = events;
    this.stream = new ClaudeStreamRecorder(events, keys, this.model);
    const tools = nativeToolSelection(options.servers, options.policies);
    const { selection, scriptArgs } = claudeScriptExecutable(this.selection);
    try {
      const launch = await prepareNativeLaunch(
        selection,
        CLAUDE_CODE_DEFAULTS,
        async (dirs, key, route) => {
          const apiKey = claudeApiKey(this.selection, key);
          ctx.setStage({ stage: 'harness_startup', operation: 'start MCP capture proxies' });
          const descriptors = await wire.group.start(ctx.signal);
          const extras = await claudeLaunchExtras(dirs, {
            selection: this.selection,
            model: this.model,
            apiKey,
            descriptors,
            tools,
            keys,
            ...(route !== undefined && { route }),
          });
          return { ...extras, args: [...scriptArgs, ...extras.args] };
        },
        ctx.redactor,
        ctx.cassette,
      );
      this.plan = launch.plan;
    } catch (error) {
      throw withNode20Hint(error);
    }
    if (ctx.signal.aborted) throw ctx.signal.reason;
    ctx.setStage({ stage: 'harness_startup', operation: 'spawn' });
    const proc = new AgentProcess(this.plan, recorder, ctx.redactor, ctx.scope);
    this.process = proc;
    if (proc.pid === null) throw cliExited(await proc.exited, 'its start');
    this.stopReading = readNdjsonLines(proc.child.stdout, {
      message: (message, raw) => {
        events.frame('harness_to_sdk', raw);
        const end = this.stream?.handle(message);
        if (end !== undefined) this.waiting?.(end);
        wire.sync();
      },
      malformed: (raw, reason) => {
        events.frame('harness_to_sdk', raw);
        events.malformed('claude_code_malformed_frame', `Claude Code wrote a stdout line that is ${reason}`);
      },
    });
    // Claude Code says nothing before its first user message: `session.created` is recorded from
    // the `system`/`init` message that starts the first turn.
  }

  async runTurn(ctx: HarnessContext, turn: HarnessTurn): Promise<HarnessTurnEnd> {
    const stream = this.stream as ClaudeStreamRecorder;
    const proc = this.process as AgentProcess;
    const wire = this.wire as TurnWireSync;
    await wire.beginTurn(turn.turnId, () => proc);
    stream.beginTurn();
    this.cancelSent = false;
    ctx.setStage({ stage: 'waiting_for_harness_response', operation: 'stream-json user message' });
    const result = new Promise<ClaudeTurnResult>((resolve) => (this.waiting = resolve));
    this.turnDone = result;
    const abort = abortRejection(ctx.signal);
    const aborted = abort.aborted.catch(() => 'aborted' as const);
    try {
      const message = {
        type: 'user',
        message: { role: 'user', content: [{ type: 'text', text: turn.prompt }] },
        parent_tool_use_id: null,
        session_id: stream.agentSessionId ?? '',
      };
      this.events?.frame('sdk_to_harness', JSON.stringify(message));
      if (!(await writeNdjsonLine(proc.child.stdin, message))) {
        const exit = await exitWithin(proc, EXIT_WAIT_MS);
        const error =
          exit !== undefined
            ? cliExited(exit, 'the prompt to be read')
            : new M3Error('claude_code_stdin_closed', 'Claude Code closed its stdin before the prompt was written', {});
        return { text: null, stopReason: null, error, terminal: true };
      }
      const end = await Promise.race([result, proc.exited, aborted]);
      const partial = stream.turnText === '' ? null : stream.turnText;
      if (end === 'aborted') return { text: partial, stopReason: null };
      if ('code' in end) {
        ctx.recorder.addLimitation('partial_trace');
        return { text: partial, stopReason: null, error: cliExited(end, 'the turn result'), terminal: true };
      }
      return claudeTurnEnd(end, this.cancelSent);
    } finally {
      abort.dispose();
      this.waiting = undefined;
      this.turnDone = undefined;
      await wire.endTurn();
    }
  }

  /** The stream-json `interrupt` control request; waits (bounded) for the turn's `result`. */
  async cancelTurn(): Promise<void> {
    const proc = this.process;
    if (this.turnDone === undefined || proc === undefined || this.cancelSent) return;
    this.cancelSent = true;
    const request = {
      type: 'control_request',
      request_id: `m3-interrupt-${randomUUID()}`,
      request: { subtype: 'interrupt' },
    };
    this.events?.frame('sdk_to_harness', JSON.stringify(request));
    await writeNdjsonLine(proc.child.stdin, request);
    await Promise.race([this.turnDone, proc.exited, delay(CANCEL_WAIT_MS)]);
  }

  close(ctx: HarnessContext): Promise<void> {
    this.closing ??= this.cleanup(ctx);
    return this.closing;
  }

  /** Interrupt a turn in flight, close stdin, end the process group, close the proxies, remove the temp root. */
  private async cleanup(ctx: HarnessContext): Promise<void> {
    await this.cancelTurn().catch(() => undefined);
    const clean = await endAgentProcess(this.process, EXIT_WAIT_MS);
    this.stopReading?.();
    await this.wire?.group.close();
    await removeLaunchRootNotingFailure(ctx.recorder, this.plan, clean);
  }
}
