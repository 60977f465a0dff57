import type { JsonObject, JsonValue } from '../../json';
import type { NativeEventRecorder, NativeReportedCall } from '../native/NativeEventRecorder';
import { splitPrefixedToolName, type NativeServerTools } from '../native/nativeToolSelection';
import { opencodeName } from './opencodeConfig';
import { isObject } from '../../json';

const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/** What the assistant messages of one turn came to. */
export interface OpencodeTurnFacts {
  /** The text of the turn's last assistant message that has text; null when none has. */
  readonly text: string | null;
  /** `info.finish` of the last assistant message (`stop`, `tool-calls`, `length`...). */
  readonly finish: string | null;
  /** `info.error` of the last assistant message (`{ name, data: { message } }`). */
  readonly error: { name: string; message: string } | null;
  /** How many assistant messages were recorded. */
  readonly messages: number;
}

interface Totals {
  input: number;
  output: number;
  reasoning: number;
  total: number | null;
  cost: number | null;
}

/**
 * Projects OpenCode's session history (`GET /session/{id}/message`: `{ info, parts }[]`) into the
 * native events, read as often as the driver likes: a tool part as a reported call once it runs
 * (`providerCallId` = its `callID`; OpenCode's `<server>_<tool>`, both sanitized, split by the
 * longest sanitized server name and mapped back, the tool too when the policy names it) and its
 * result once completed or failed; a message's reasoning parts and its text (one whole message,
 * recorded before its tool parts and again for text after them) once the message is complete (or
 * the read is final); usage cumulative for the session (the sum of `info.tokens` and `info.cost`
 * over the complete assistant messages that report them).
 */
export class OpencodeMessageRecorder {
  private readonly done = new Set<string>();
  private readonly requested = new Set<string>();
  private readonly resulted = new Set<string>();
  private readonly totals: Totals = { input: 0, output: 0, reasoning: 0, total: null, cost: null };
  private turn = { text: null as string | null, last: undefined as Record<string, unknown> | undefined, count: 0 };

  /** Sanitized server name → the server; per server, sanitized tool name → the tool (when the policy names them). */
  private readonly servers = new Map<string, string>();
  private readonly tools = new Map<string, Map<string, string>>();

  constructor(
    private readonly events: NativeEventRecorder,
    selection: readonly NativeServerTools[],
  ) {
    for (const { server, tools } of selection) {
      this.servers.set(opencodeName(server), server);
      if (tools !== 'all') this.tools.set(server, new Map(tools.map((t) => [opencodeName(t), t])));
    }
  }

  /** Starts a turn's facts afresh. */
  beginTurn(): void {
    this.turn = { text: null, last: undefined, count: 0 };
  }

  /**
   * Records what is new in `history`; `final` takes every message as complete (the last read of a
   * turn, after which OpenCode adds nothing to them).
   */
  record(history: unknown, final: boolean): void {
    const entries = Array.isArray(history) ? history : [];
    let usageChanged = false;
    for (const entry of entries) {
      if (!isObject(entry) || !isObject(entry.info) || entry.info.role !== 'assistant') continue;
      const info = entry.info;
      const id = typeof info.id === 'string' ? info.id : `message-${this.done.size}`;
      if (this.done.has(id)) continue;
      const parts = Array.isArray(entry.parts) ? entry.parts.filter(isObject) : [];
      const complete = final || (isObject(info.time) && info.time.completed !== undefined) || info.error !== undefined;
      if (!complete) {
        for (const part of parts) if (part.type === 'tool') this.recordTool(part);
        continue;
      }
      this.done.add(id);
      this.turn.count++;
      this.turn.last = info;
      const text = this.recordParts(id, parts);
      if (text !== '') this.turn.text = text;
      usageChanged = this.addUsage(info) || usageChanged;
    }
    if (usageChanged) {
      const t = this.totals;
      this.events.usage({
        inputTokens: t.input,
        outputTokens: t.output,
        reasoningTokens: t.reasoning,
        totalTokens: t.total,
        cost: t.cost,
      });
    }
  }

  /**
   * Records only the tool parts in `messages` (the event stream's view, which may lag a part's
   * final text): the calls as they run and their results; the messages themselves wait for a read
   * of the history.
   */
  recordTools(messages: readonly { info: Record<string, unknown>; parts: unknown[] }[]): void {
    for (const { info, parts } of messages) {
      if (info.role !== 'assistant' || (typeof info.id === 'string' && this.done.has(info.id))) continue;
      for (const part of parts) if (isObject(part) && part.type === 'tool') this.recordTool(part);
    }
  }

  /** The facts of the messages recorded since `beginTurn`. */
  turnFacts(): OpencodeTurnFacts {
    const { text, last, count } = this.turn;
    const error = isObject(last?.error) ? last.error : undefined;
    return {
      text,
      finish: typeof last?.finish === 'string' ? last.finish : null,
      error:
        error === undefined
          ? null
          : {
              name: typeof error.name === 'string' ? error.name : 'UnknownError',
              message: isObject(error.data) && typeof error.data.message === 'string' ? error.data.message : '',
            },
      messages: count,
    };
  }

  /** Records one complete message's parts in order; returns its whole text. */
  private recordParts(messageId: string, parts: Record<string, unknown>[]): string {
    let pending = '';
    let all = '';
    const flush = (): void => {
      if (pending !== '') this.events.assistantMessage(pending, messageId);
      pending = '';
    };
    for (const part of parts) {
      if (part.type === 'text' && typeof part.text === 'string' && part.synthetic !== true && part.ignored !== true) {
        pending += part.text;
        all += part.text;
      } else if (part.type === 'reasoning') {
        const reasoning = typeof part.text === 'string' ? part.text : '';
        this.events.reasoning(reasoning !== '' ? { text: reasoning } : { visibility: 'provider_hidden' });
      } else if (part.type === 'tool') {
        flush();
        this.recordTool(part);
      }
    }
    flush();
    return all;
  }

  /** A tool part: the call once it runs (or ended), its result once it ended; each once per part. */
  private recordTool(part: Record<string, unknown>): void {
    const state = isObject(part.state) ? part.state : {};
    const key = typeof part.id === 'string' ? part.id : String(part.callID);
    const ended = state.status === 'completed' || state.status === 'error';
    if (!ended && state.status !== 'running') return;
    if (this.resulted.has(key) || (!ended && this.requested.has(key))) return;
    const name = typeof part.tool === 'string' ? part.tool : '';
    const split = splitPrefixedToolName(name, [...this.servers.keys()], '', '_');
    const server = split === undefined ? null : (this.servers.get(split.server) as string);
    const tool = split === undefined ? name : (this.tools.get(server as string)?.get(split.tool) ?? split.tool);
    const call: NativeReportedCall = {
      providerCallId: typeof part.callID === 'string' ? part.callID : String(part.id ?? ''),
      server,
      tool,
      ...(isObject(state.input) && { arguments: state.input as JsonObject }),
    };
    if (!this.requested.has(key)) this.events.toolRequested(call);
    this.requested.add(key);
    if (ended) this.resulted.add(key);
    if (state.status === 'completed') {
      this.events.toolResult(
        call,
        typeof state.output === 'string' ? state.output : (state.output as JsonValue),
        'completed',
      );
    } else if (state.status === 'error') {
      this.events.toolResult(call, typeof state.error === 'string' ? state.error : '', 'error');
    }
  }

  /** Adds a complete message's tokens and cost; false when it reports neither. */
  private addUsage(info: Record<string, unknown>): boolean {
    const tokens = isObject(info.tokens) ? info.tokens : undefined;
    const cost = num(info.cost);
    if (tokens === undefined && cost === undefined) return false;
    const t = this.totals;
    if (tokens !== undefined) {
      t.input += num(tokens.input) ?? 0;
      t.output += num(tokens.output) ?? 0;
      t.reasoning += num(tokens.reasoning) ?? 0;
      const total = num(tokens.total);
      if (total !== undefined) t.total = (t.total ?? 0) + total;
    }
    if (cost !== undefined) t.cost = (t.cost ?? 0) + cost;
    return true;
  }
}
