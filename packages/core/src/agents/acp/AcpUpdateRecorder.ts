import type { JsonObject, JsonValue } from '../../json';
import { canonicalJson } from '../../trace/projection/ProjectionContext';
import type { TraceRecorder } from '../../trace/TraceRecorder';
import { acpToolIdentity, type AcpToolIdentity } from './acpToolIdentity';
import { isObject } from '../../json';

type Scope = () => { sessionId: string; turnId?: string };

/** What one reported tool call has told so far (merged across `tool_call` / `tool_call_update`). */
interface ReportedCall {
  identity: AcpToolIdentity | undefined;
  /** The latest `rawInput` the agent sent for the call (undefined: it never sent one). */
  input: JsonValue | undefined;
  /** `canonicalJson` of the input last recorded in a `tool.call_requested`; undefined until one is. */
  recordedInput: string | undefined;
  resulted: boolean;
}

const FINISHED: ReadonlySet<string> = new Set(['completed', 'failed', 'success', 'error', 'cancelled']);

/** The text of an ACP content block or list of blocks (`{ type: 'text', text }`). */
function textOf(content: unknown): string {
  if (Array.isArray(content)) return content.map(textOf).join('');
  if (!isObject(content)) return '';
  if (typeof content.text === 'string') return content.text;
  return isObject(content.content) ? textOf(content.content) : '';
}

/**
 * Turns an agent's `session/update` notifications into trace events for the turn in flight:
 * message chunks → `assistant.content` (and the turn's text), thought chunks → `reasoning`,
 * `tool_call` / `tool_call_update` → `tool.call_requested` / `tool.result_received` (origin
 * `harness_reported`, server and tool from the title), `usage_update` → `usage`, anything else
 * → `provider.event`. Everything is the agent's report; the wire evidence comes from the proxies.
 */
export class AcpUpdateRecorder {
  private text: string[] = [];
  private calls = new Map<string, ReportedCall>();
  private usageSeen = false;

  constructor(
    private readonly recorder: TraceRecorder,
    private readonly servers: readonly string[],
    private readonly scope: Scope,
  ) {}

  /** Starts a new turn: its text and its tool calls (an id reused in a later turn is a new call). */
  beginTurn(): void {
    this.text = [];
    this.calls = new Map();
  }

  /** The turn's answer: its message chunks concatenated. */
  get turnText(): string {
    return this.text.join('');
  }

  /** True once the agent reported usage. */
  get usageReported(): boolean {
    return this.usageSeen;
  }

  /** Records one `session/update` params object. */
  handle(params: unknown): void {
    if (this.recorder.finished) return;
    const update = isObject(params) && isObject(params.update) ? params.update : undefined;
    const kind = typeof update?.sessionUpdate === 'string' ? update.sessionUpdate : '';
    const base = { ...this.scope(), phase: 'turn' as const, origin: 'harness_reported' as const };
    if (update === undefined) {
      this.recorder.record('provider.event', { ...base, payload: { category: 'acp', update: null } });
    } else if (kind === 'agent_thought_chunk' || /reason|thought/.test(kind)) {
      const text = textOf(update.content);
      this.recorder.record('reasoning', {
        ...base,
        payload: { visibility: 'visible', content: [{ type: 'text', text }] },
      });
    } else if (kind === 'agent_message_chunk') {
      const text = textOf(update.content);
      this.text.push(text);
      const messageId = typeof update.messageId === 'string' ? update.messageId : null;
      this.recorder.record('assistant.content', {
        ...base,
        payload: { role: 'assistant', content: [{ type: 'text', text }], messageId },
      });
    } else if (kind === 'tool_call' || kind === 'tool_call_update') {
      this.toolCall(update, base);
    } else if (kind === 'usage_update') {
      this.usage(update, base);
    } else {
      this.recorder.record('provider.event', {
        ...base,
        payload: { category: 'acp', kind, update: update as JsonObject },
      });
    }
  }

  /**
   * A `tool_call` / `tool_call_update`. The request is recorded once the title names the tool, and
   * again whenever the agent reports a different `rawInput` for the same `toolCallId` (Claude Code
   * ACP first sends `rawInput: {}`, then the real input): the projection takes the latest. No
   * `rawInput` at all (Gemini CLI) means the agent did not report arguments, so none are recorded.
   * The result is `rawOutput` as sent, else the ACP `content` blocks, once the status is final.
   */
  private toolCall(update: Record<string, unknown>, base: ReturnType<Scope> & object): void {
    const id = typeof update.toolCallId === 'string' ? update.toolCallId : '';
    const call = this.calls.get(id) ?? {
      identity: undefined,
      input: undefined,
      recordedInput: undefined,
      resulted: false,
    };
    this.calls.set(id, call);
    if (typeof update.title === 'string' && update.title.trim() !== '') {
      call.identity = acpToolIdentity(update.title, this.servers);
    }
    if (update.rawInput !== undefined) call.input = update.rawInput as JsonValue;
    const fields = {
      ...base,
      ...(call.identity?.server != null && { server: call.identity.server }),
    };
    const input = canonicalJson(call.input);
    if (call.identity !== undefined && call.recordedInput !== input) {
      call.recordedInput = input;
      this.recorder.record('tool.call_requested', {
        ...fields,
        payload: {
          method: 'tools/call',
          params: { name: call.identity.tool, ...(call.input !== undefined && { arguments: call.input }) },
          providerCallId: id,
          ...(typeof update.kind === 'string' && { toolKind: update.kind }),
        },
      });
    }
    const status = typeof update.status === 'string' ? update.status : undefined;
    if (call.recordedInput !== undefined && !call.resulted && status !== undefined && FINISHED.has(status)) {
      call.resulted = true;
      const result: JsonValue =
        update.rawOutput !== undefined
          ? (update.rawOutput as JsonValue)
          : { content: (update.content ?? []) as JsonValue, isError: status !== 'completed' };
      this.recorder.record('tool.result_received', {
        ...fields,
        payload: { method: 'tools/call', result, providerCallId: id, status },
      });
    }
  }

  private usage(update: Record<string, unknown>, base: object): void {
    this.usageSeen = true;
    const cost = isObject(update.cost) ? update.cost : undefined;
    this.recorder.record('usage', {
      ...base,
      payload: {
        inputTokens: null,
        outputTokens: null,
        totalTokens: typeof update.used === 'number' ? update.used : null,
        reasoningTokens: null,
        cost: typeof cost?.amount === 'number' ? cost.amount : null,
        currency: typeof cost?.currency === 'string' ? cost.currency : null,
      },
    });
  }
}
