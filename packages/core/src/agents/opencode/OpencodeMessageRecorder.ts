import type { JsonObject, JsonValue } from '../../json';
import type { NativeEventRecorder, NativeReportedCall } from '../native/NativeEventRecorder';
import { splitPrefixedToolName } from '../native/nativeToolSelection';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/** What the assistant messages of one turn came to. */
export interface OpencodeTurnFacts {
  /** The text of the turn's last assistant message that has text; null when none has. */
  readonly text: string | null;
  /** `info.finish` of the last assistant message (`stop`, `tool-calls`, `length`...). */
  readonly finish: string | null;
  /** `info.error` of the last assistant message (`{ name, data: { message } }`). */
  readonly error: { name: string; message: string } | null;
  /** How many assistant messages were new. */
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
 * native events, each assistant message once: reasoning parts, the message's text (one whole
 * message, recorded before its tool parts and again for text after them), tool parts as reported
 * calls (`providerCallId` = the part's `callID`, `<server>_<tool>` split by the longest server
 * name) with their result when completed or failed, and usage cumulative for the session (the sum
 * of `info.tokens` and `info.cost` over the assistant messages that report them).
 */
export class OpencodeMessageRecorder {
  private readonly done = new Set<string>();
  private readonly totals: Totals = { input: 0, output: 0, reasoning: 0, total: null, cost: null };
  private reportedUsage = false;

  constructor(
    private readonly events: NativeEventRecorder,
    private readonly servers: readonly string[],
  ) {}

  /** Records the assistant messages not recorded yet; returns the facts of those new ones. */
  record(history: unknown): OpencodeTurnFacts {
    const entries = Array.isArray(history) ? history : [];
    let text: string | null = null;
    let last: Record<string, unknown> | undefined;
    let count = 0;
    for (const entry of entries) {
      if (!isObject(entry) || !isObject(entry.info) || entry.info.role !== 'assistant') continue;
      const id = typeof entry.info.id === 'string' ? entry.info.id : `message-${this.done.size}`;
      if (this.done.has(id)) continue;
      this.done.add(id);
      count++;
      last = entry.info;
      const messageText = this.recordParts(id, Array.isArray(entry.parts) ? entry.parts : []);
      if (messageText !== '') text = messageText;
      this.addUsage(entry.info);
    }
    if (count > 0 && this.reportedUsage) {
      const t = this.totals;
      this.events.usage({
        inputTokens: t.input,
        outputTokens: t.output,
        reasoningTokens: t.reasoning,
        totalTokens: t.total,
        cost: t.cost,
      });
    }
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

  /** Records one message's parts in order; returns its whole text. */
  private recordParts(messageId: string, parts: unknown[]): string {
    let pending = '';
    let all = '';
    const flush = (): void => {
      if (pending !== '') this.events.assistantMessage(pending, messageId);
      pending = '';
    };
    for (const part of parts) {
      if (!isObject(part)) continue;
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

  private recordTool(part: Record<string, unknown>): void {
    const name = typeof part.tool === 'string' ? part.tool : '';
    const split = splitPrefixedToolName(name, this.servers, '', '_');
    const state = isObject(part.state) ? part.state : {};
    const call: NativeReportedCall = {
      providerCallId: typeof part.callID === 'string' ? part.callID : String(part.id ?? ''),
      server: split?.server ?? null,
      tool: split?.tool ?? name,
      ...(isObject(state.input) && { arguments: state.input as JsonObject }),
    };
    this.events.toolRequested(call);
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

  private addUsage(info: Record<string, unknown>): void {
    const tokens = isObject(info.tokens) ? info.tokens : undefined;
    const cost = num(info.cost);
    if (tokens === undefined && cost === undefined) return;
    this.reportedUsage = true;
    const t = this.totals;
    if (tokens !== undefined) {
      t.input += num(tokens.input) ?? 0;
      t.output += num(tokens.output) ?? 0;
      t.reasoning += num(tokens.reasoning) ?? 0;
      const total = num(tokens.total);
      if (total !== undefined) t.total = (t.total ?? 0) + total;
    }
    if (cost !== undefined) t.cost = (t.cost ?? 0) + cost;
  }
}
