import type { JsonValue } from '../json';

/** The wire dialects the fake model server speaks. */
export type FakeModelDialect = 'chat_completions' | 'anthropic_messages' | 'gemini' | 'responses';

/** An HTTP request the fake server received, as it arrived. */
export interface RecordedChatRequest {
  readonly method: string;
  /** Path without the query string. */
  readonly path: string;
  /** Lower-cased header names. */
  readonly headers: Readonly<Record<string, string>>;
  /** Parsed JSON body, or null when it was not JSON. */
  readonly body: JsonValue | null;
}

/** A tool call the model made earlier in the conversation, as the client sent it back. */
export interface FakeToolCallView {
  readonly id: string | null;
  readonly name: string;
  /** Parsed arguments (the raw text when it was not JSON). */
  readonly arguments: JsonValue;
}

/** A tool result the client sent, with the tool's name resolved from the matching call when the dialect omits it. */
export interface FakeToolResultView {
  readonly callId: string | null;
  readonly name: string | null;
  /** The result as text (JSON text for structured results). */
  readonly text: string;
  readonly isError: boolean;
}

/** One message of the conversation, the same for every dialect. */
export interface FakeMessageView {
  /** `tool` for a message that only carries tool results (Chat `tool`, Anthropic/Gemini user turns of results). */
  readonly role: 'user' | 'assistant' | 'tool';
  /** Text parts joined with newlines. */
  readonly text: string;
  readonly toolCalls: readonly FakeToolCallView[];
  readonly toolResults: readonly FakeToolResultView[];
}

/** A tool the client offered the model. */
export interface FakeToolView {
  readonly name: string;
  readonly description: string;
  /** JSON Schema of the arguments, when sent. */
  readonly parameters: JsonValue | null;
  /**
   * Responses only: the `namespace` tool the function was offered in (Codex offers MCP tools as namespace
   * `mcp__<server>`); `name` is then `<namespace>__<function>`.
   */
  readonly namespace?: string;
  /**
   * Responses only: a code-mode nested tool (Codex), called from JavaScript in the `exec` tool as
   * `tools.<name>(...)` rather than as a function call; `parameters` is then null (the description holds
   * Codex's TypeScript declaration).
   */
  readonly codeMode?: true;
}

/** The dialect-independent part of a model request. */
export interface FakeConversationView {
  readonly model: string | null;
  readonly stream: boolean;
  /** System / developer instructions joined with newlines. */
  readonly system: string;
  readonly messages: readonly FakeMessageView[];
  readonly tools: readonly FakeToolView[];
  /** Responses only: the client runs the model in code mode (Codex's `exec` tool; see `FakeToolView.codeMode`). */
  readonly codeMode?: true;
}

/** A model request: what arrived plus its neutral view, used for rules, reply functions and assertions. */
export interface FakeModelRequest extends RecordedChatRequest, FakeConversationView {
  readonly dialect: FakeModelDialect;
  /** 1-based number among the model requests this server received. */
  readonly number: number;
}

/** The text of the last message the user typed (messages carrying only tool results are skipped); '' when none. */
export function lastUserText(request: FakeConversationView): string {
  for (let i = request.messages.length - 1; i >= 0; i -= 1) {
    const message = request.messages[i]!;
    if (message.role === 'user' && message.text.length > 0) return message.text;
  }
  return '';
}

/** Tool results in the last message of the conversation (empty unless the request answers tool calls). */
export function trailingToolResults(request: FakeConversationView): readonly FakeToolResultView[] {
  return request.messages.at(-1)?.toolResults ?? [];
}

/**
 * The name under which a tool is offered, or null: exactly `tool`, or a name ending in `_tool`, `.tool` or
 * `/tool` (how agents prefix MCP tools: `mcp__example__shipping_quote`, `mcp_example_shipping_quote`). A pattern
 * is tested against each name. Script tool calls with it so the same rule works for every agent.
 */
export function offeredTool(request: Pick<FakeConversationView, 'tools'>, tool: string | RegExp): string | null {
  const names = request.tools.map((t) => t.name);
  if (typeof tool !== 'string') return names.find((name) => toolNameMatches(name, tool)) ?? null;
  return names.find((name) => name === tool) ?? names.find((name) => toolNameMatches(name, tool)) ?? null;
}

/**
 * Whether a tool name is `tool` or ends in `_tool`, `.tool` or `/tool` (a pattern is tested as it is): how
 * `tool` and `afterToolResult` rules find a tool whatever prefix the agent gave it.
 */
export function toolNameMatches(name: string, tool: string | RegExp): boolean {
  if (typeof tool !== 'string') {
    tool.lastIndex = 0; // a global or sticky pattern keeps state between calls
    return tool.test(name);
  }
  return name === tool || (name.endsWith(tool) && /[_./]$/.test(name.slice(0, -tool.length)));
}

/** Tool-call rounds in the conversation so far: assistant messages that asked for at least one tool. */
export function toolRounds(request: FakeConversationView): number {
  return request.messages.filter((m) => m.role === 'assistant' && m.toolCalls.length > 0).length;
}

/** Fills tool-result names from the calls earlier in the conversation (Chat and Anthropic send only ids). */
export function resolveToolResultNames(messages: readonly FakeMessageView[]): FakeMessageView[] {
  const names = new Map<string, string>();
  return messages.map((message) => {
    for (const call of message.toolCalls) if (call.id !== null) names.set(call.id, call.name);
    if (message.toolResults.every((r) => r.name !== null)) return message;
    return {
      ...message,
      toolResults: message.toolResults.map((r) =>
        r.name === null && r.callId !== null ? { ...r, name: names.get(r.callId) ?? null } : r,
      ),
    };
  });
}

/** Parses JSON text, keeping the text itself when it is not JSON. */
export function parseArguments(text: string): JsonValue {
  try {
    return JSON.parse(text) as JsonValue;
  } catch {
    return text;
  }
}

/** Text of a JSON value: strings as they are, anything else as JSON. */
export function textOf(value: JsonValue | undefined): string {
  if (value === undefined || value === null) return '';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/**
 * A one-line description of a request for error messages: dialect, model, tool results, tools offered.
 * The conversation's text is left out (it is a payload); tests read it from `fake.modelRequests`.
 */
export function describeRequest(request: FakeModelRequest): string {
  const tools = request.tools.map((t) => t.name);
  const results = trailingToolResults(request).map((r) => r.name ?? r.callId ?? '?');
  const offered = tools.length > 0 ? `: ${tools.slice(0, 8).join(', ')}${tools.length > 8 ? ', ...' : ''}` : '';
  return (
    `${request.dialect} request #${request.number} (model ${request.model ?? 'none'}, ` +
    `last user text of ${lastUserText(request).length} characters, ` +
    `${results.length > 0 ? `after tool results of ${results.join(', ')}` : 'no tool results'}, ` +
    `${tools.length} tools offered${offered})`
  );
}
