import type { JsonObject, JsonValue } from '../../json';
import type { NativeEventRecorder, NativeReportedCall } from '../native/NativeEventRecorder';
import { isObject } from '../../json';

type Params = Record<string, unknown>;

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const texts = (v: unknown): string[] => (Array.isArray(v) ? v.filter((t): t is string => typeof t === 'string') : []);

/** How a Codex turn ended (`turn/completed`). */
export interface CodexTurnCompletion {
  readonly turnId: string;
  /** `completed`, `interrupted`, `failed` (or what a newer Codex says). */
  readonly status: string;
  readonly errorMessage: string | null;
}

/** An MCP server's startup as Codex reports it (`mcpServer/startupStatus/updated`). */
export interface CodexServerStatus {
  readonly name: string;
  /** `starting`, `ready`, `failed`, `cancelled`. */
  readonly status: string;
  readonly error: string | null;
}

/**
 * Turns Codex app-server notifications into the native trace shape: whole assistant messages and
 * reasoning from `item/completed`, MCP calls from `mcpToolCall` items (item id = the `_meta.callId`
 * of the `tools/call` on the wire = `providerCallId`), cumulative usage from
 * `thread/tokenUsage/updated`, other items and errors as provider events. Keeps the turn's text
 * (whole messages, else the deltas streamed so far) and reports turn ends and server startup.
 */
export class CodexNotifications {
  private messages: string[] = [];
  private deltas = new Map<string, string>();
  private readonly started = new Set<string>();

  constructor(
    private readonly events: NativeEventRecorder,
    private readonly on: {
      readonly turnCompleted: (end: CodexTurnCompletion) => void;
      readonly serverStatus: (status: CodexServerStatus) => void;
    },
  ) {}

  /** Forgets the previous turn's text. */
  beginTurn(): void {
    this.messages = [];
    this.deltas.clear();
  }

  /** The turn's answer so far: its whole messages, else what was streamed; null when nothing. */
  get turnText(): string | null {
    if (this.messages.length > 0) return this.messages.join('\n\n');
    const streamed = [...this.deltas.values()].join('\n\n');
    return streamed === '' ? null : streamed;
  }

  handle(method: string, params: Params): void {
    switch (method) {
      case 'item/started':
      case 'item/completed':
        if (isObject(params.item)) this.item(params.item, method === 'item/completed');
        return;
      case 'item/agentMessage/delta': {
        const id = str(params.itemId) ?? '';
        this.deltas.set(id, (this.deltas.get(id) ?? '') + (str(params.delta) ?? ''));
        return;
      }
      case 'thread/tokenUsage/updated':
        return this.usage(params);
      case 'turn/completed': {
        const turn = isObject(params.turn) ? params.turn : {};
        const error = isObject(turn.error) ? str(turn.error.message) : undefined;
        return this.on.turnCompleted({
          turnId: str(turn.id) ?? '',
          status: str(turn.status) ?? 'unknown',
          errorMessage: error ?? null,
        });
      }
      case 'mcpServer/startupStatus/updated':
        return this.on.serverStatus({
          name: str(params.name) ?? '',
          status: str(params.status) ?? 'unknown',
          error: str(params.error) ?? null,
        });
      case 'error': {
        const error = isObject(params.error) ? params.error : {};
        this.events.providerEvent('codex_error', {
          message: str(error.message) ?? null,
          willRetry: params.willRetry === true,
          turnId: str(params.turnId) ?? null,
        });
        return;
      }
      default:
        return;
    }
  }

  private item(item: Params, completed: boolean): void {
    const type = str(item.type);
    const id = str(item.id) ?? '';
    if (type === 'mcpToolCall') return this.toolCall(item, id, completed);
    if (!completed) return;
    if (type === 'agentMessage') {
      const text = str(item.text) ?? this.deltas.get(id) ?? '';
      if (text !== '') this.messages.push(text);
      this.events.assistantMessage(text, id === '' ? null : id);
    } else if (type === 'reasoning') {
      const visible = [...texts(item.content), ...texts(item.summary)].join('\n');
      this.events.reasoning(visible !== '' ? { text: visible } : { visibility: 'provider_hidden' });
    } else if (type !== 'userMessage') {
      // Built-in tools are off; anything else Codex reports is kept as what it is.
      this.events.providerEvent('codex_item', { type: type ?? null, id, status: str(item.status) ?? null });
    }
  }

  private toolCall(item: Params, id: string, completed: boolean): void {
    const call: NativeReportedCall = {
      providerCallId: id,
      server: str(item.server) ?? null,
      tool: str(item.tool) ?? '',
      ...(item.arguments !== undefined && { arguments: item.arguments as JsonValue }),
    };
    if (!this.started.has(id)) {
      this.started.add(id);
      this.events.toolRequested(call);
    }
    if (!completed) return;
    const error = isObject(item.error) ? item.error : undefined;
    const result: JsonValue = isObject(item.result)
      ? (item.result as JsonObject)
      : { isError: true, content: [{ type: 'text', text: str(error?.message) ?? 'no result' }] };
    this.events.toolResult(call, result, str(item.status) ?? 'unknown');
  }

  private usage(params: Params): void {
    const usage = isObject(params.tokenUsage) ? params.tokenUsage : {};
    const total = isObject(usage.total) ? usage.total : undefined;
    if (total === undefined) return;
    // Codex reports tokens only; it never reports a cost.
    this.events.usage({
      inputTokens: num(total.inputTokens),
      outputTokens: num(total.outputTokens),
      totalTokens: num(total.totalTokens),
      reasoningTokens: num(total.reasoningOutputTokens),
    });
  }
}
