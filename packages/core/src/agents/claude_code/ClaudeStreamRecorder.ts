import type { JsonObject, JsonValue } from '../../json';
import type { UsageValue } from '../../trace/TraceEntry';
import type { NativeEventRecorder, NativeReportedCall } from '../native/NativeEventRecorder';
import { splitPrefixedToolName } from '../native/nativeToolSelection';
import { CLAUDE_MCP_PREFIX, CLAUDE_MCP_SEPARATOR } from './claudeCodeLaunch';
import { isObject } from '../../json';

type Message = Record<string, unknown>;

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/** The `result` message that ends a turn, as the driver needs it. */
export interface ClaudeTurnResult {
  readonly subtype: string | null;
  readonly isError: boolean;
  /** The final answer (`result`), else the turn's assistant text. */
  readonly text: string | null;
  readonly stopReason: string | null;
}

/**
 * Projects Claude Code's stream-json output (2.1.x) into the native trace shape: `system`/`init`
 * → `session.created` (once, with `claude_code_version`, `session_id`, the resolved model);
 * `assistant` content blocks → whole messages (the CLI sends each content block as its own complete
 * line, under the message's id), `thinking` → visible reasoning (signatures dropped), `redacted_thinking` → encrypted
 * reasoning, `tool_use` → reported calls (`providerCallId` = the `tool_use` id, which the CLI also
 * sends in `tools/call` `_meta["claudecode/toolUseId"]`); `user` `tool_result` blocks → reported
 * results; `result` → cumulative usage (`modelUsage`, `total_cost_usd`) and a provider event.
 */
export class ClaudeStreamRecorder {
  private sessionRecorded = false;
  private readonly calls = new Map<string, NativeReportedCall>();
  private turnTexts: string[] = [];
  /** The session's usage so far. */
  private readonly total = { input: 0, output: 0, tokens: false, cost: null as number | null };
  agentSessionId: string | null = null;

  private readonly servers = new Map<string, string>();

  /** `keys`: each server's name as Claude Code writes it in tool names (`claudeServerKeys`). */
  constructor(
    private readonly events: NativeEventRecorder,
    keys: ReadonlyMap<string, string>,
    private readonly selectedModel: string,
  ) {
    for (const [server, key] of keys) this.servers.set(key, server);
  }

  /** The assistant text of the turn so far (for a turn that broke off). */
  get turnText(): string {
    return this.turnTexts.join('\n\n');
  }

  beginTurn(): void {
    this.turnTexts = [];
  }

  /** Handles one stdout message; returns the turn's end for a `result`. */
  handle(message: Message): ClaudeTurnResult | undefined {
    switch (message.type) {
      case 'system':
        if (message.subtype === 'init') this.init(message);
        else this.events.providerEvent('claude_code.system', { subtype: str(message.subtype) });
        return undefined;
      case 'assistant':
        this.assistant(message);
        return undefined;
      case 'user':
        this.toolResults(message);
        return undefined;
      case 'result':
        return this.result(message);
      case 'control_response':
      case 'stream_event':
        return undefined;
      default:
        this.events.providerEvent('claude_code.message', { type: str(message.type) });
        return undefined;
    }
  }

  private init(message: Message): void {
    const sessionId = str(message.session_id);
    if (sessionId !== null) this.agentSessionId = sessionId;
    if (this.sessionRecorded) return;
    this.sessionRecorded = true;
    this.events.sessionCreated({
      agentSessionId: sessionId,
      model: str(message.model) ?? this.selectedModel,
      agent: { name: 'claude-code', version: str(message.claude_code_version) },
    });
    const servers = Array.isArray(message.mcp_servers) ? (message.mcp_servers.filter(isObject) as JsonObject[]) : [];
    const tools = Array.isArray(message.tools) ? message.tools.filter((t): t is string => typeof t === 'string') : [];
    this.events.providerEvent('claude_code.init', {
      tools,
      mcpServers: servers,
      permissionMode: str(message.permissionMode),
    });
  }

  private assistant(message: Message): void {
    const body = isObject(message.message) ? message.message : {};
    const id = str(body.id);
    const content = Array.isArray(body.content) ? body.content.filter(isObject) : [];
    if (body.model === '<synthetic>') {
      // The CLI's own message (an API error, an interruption), not the model's.
      const text = content.map((b) => str(b.text) ?? '').join('');
      this.events.providerEvent('claude_code.synthetic_message', { text });
      return;
    }
    for (const block of content) {
      if (block.type === 'text' && typeof block.text === 'string') {
        // Each content block comes as its own complete line: a whole message to the trace.
        if (block.text === '') continue;
        this.turnTexts.push(block.text);
        this.events.assistantMessage(block.text, id);
      } else if (block.type === 'thinking' && typeof block.thinking === 'string') {
        this.events.reasoning({ text: block.thinking });
      } else if (block.type === 'redacted_thinking') {
        this.events.reasoning({ visibility: 'encrypted' });
      } else if (block.type === 'tool_use' && typeof block.id === 'string' && typeof block.name === 'string') {
        const keys = [...this.servers.keys()];
        const split = splitPrefixedToolName(block.name, keys, CLAUDE_MCP_PREFIX, CLAUDE_MCP_SEPARATOR);
        const call: NativeReportedCall = {
          providerCallId: block.id,
          server: split !== undefined ? (this.servers.get(split.server) ?? null) : null,
          tool: split?.tool ?? block.name,
          ...(block.input !== undefined && { arguments: block.input as JsonValue }),
        };
        this.calls.set(block.id, call);
        this.events.toolRequested(call);
      }
    }
  }

  private toolResults(message: Message): void {
    const body = isObject(message.message) ? message.message : {};
    const content = Array.isArray(body.content) ? body.content.filter(isObject) : [];
    for (const block of content) {
      if (block.type !== 'tool_result' || typeof block.tool_use_id !== 'string') continue;
      const call = this.calls.get(block.tool_use_id);
      if (call === undefined) continue;
      const isError = block.is_error === true;
      const blocks =
        typeof block.content === 'string'
          ? [{ type: 'text', text: block.content }]
          : Array.isArray(block.content)
            ? (block.content as JsonValue[])
            : [];
      const structured = isObject(message.tool_use_result) ? message.tool_use_result.structuredContent : undefined;
      const result: JsonObject = {
        content: blocks,
        ...(isObject(structured) && { structuredContent: structured as JsonObject }),
        ...(isError && { isError: true }),
      };
      this.events.toolResult(call, result, isError ? 'error' : 'completed');
    }
  }

  private result(message: Message): ClaudeTurnResult {
    const usage = this.usage(message);
    if (usage !== undefined) this.events.usage(usage);
    const denials = Array.isArray(message.permission_denials) ? (message.permission_denials as JsonValue[]) : [];
    this.events.providerEvent('claude_code.result', {
      subtype: str(message.subtype),
      isError: message.is_error === true,
      numTurns: num(message.num_turns),
      durationMs: num(message.duration_ms),
      durationApiMs: num(message.duration_api_ms),
      stopReason: str(message.stop_reason),
      serviceTier: isObject(message.usage) ? str(message.usage.service_tier) : null,
      permissionDenials: denials,
    });
    const answer = str(message.result);
    const own = this.turnText;
    this.turnTexts = [];
    return {
      subtype: str(message.subtype),
      isError: message.is_error === true,
      text: answer ?? (own === '' ? null : own),
      stopReason: str(message.stop_reason),
    };
  }

  /**
   * Cumulative usage: `modelUsage` (the session's totals per model, summed) when the result has it,
   * else the last totals plus the turn's `usage` (an interrupted turn reports an empty `modelUsage`);
   * cost is `total_cost_usd` (cumulative, USD), never lowered by such a turn's 0.
   */
  private usage(message: Message): Partial<UsageValue> | undefined {
    const total = this.total;
    const perModel = isObject(message.modelUsage) ? Object.values(message.modelUsage).filter(isObject) : [];
    const turn = isObject(message.usage) ? message.usage : undefined;
    if (perModel.length > 0) {
      total.input = perModel.reduce((n, m) => n + (num(m.inputTokens) ?? 0), 0);
      total.output = perModel.reduce((n, m) => n + (num(m.outputTokens) ?? 0), 0);
      total.tokens = true;
    } else if (num(turn?.input_tokens) !== null || num(turn?.output_tokens) !== null) {
      total.input += num(turn?.input_tokens) ?? 0;
      total.output += num(turn?.output_tokens) ?? 0;
      total.tokens = true;
    }
    const cost = num(message.total_cost_usd);
    if (cost !== null && cost >= (total.cost ?? 0)) total.cost = cost;
    if (!total.tokens && total.cost === null) return undefined;
    return {
      ...(total.tokens && {
        inputTokens: total.input,
        outputTokens: total.output,
        totalTokens: total.input + total.output,
      }),
      ...(total.cost !== null && { cost: total.cost, currency: 'USD' }),
    };
  }
}
