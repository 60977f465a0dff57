import type { JsonObject, JsonValue } from '../json';
import { toolNameMatches } from './fakeModelRequest';

/** A tool call the fake model asks for. */
export interface FakeToolCall {
  /** Defaults to a dialect-shaped id (`call_<n>_<i>`, `toolu_fake_<n>_<i>`); Gemini sends none unless set. */
  readonly id?: string;
  readonly name: string;
  /** A JSON string, or an object (serialized for you). */
  readonly arguments: string | JsonObject;
}

/** One scripted reply, the same for every dialect. Everything is optional: `{}` answers an empty assistant message. */
export interface FakeChatReply {
  /** Assistant text; an object is sent as its JSON text (handy for judge replies). */
  readonly content?: string | JsonObject | null;
  /** HTTP status; non-2xx sends the dialect's error body. Default 200. */
  readonly status?: number;
  /** Waits this long before answering (to test timeouts). */
  readonly delayMs?: number;
  readonly toolCalls?: readonly FakeToolCall[];
  /** Sends `message.refusal` with this text (and null content); Responses a `refusal` part; the others send it as text. */
  readonly refusal?: string;
  /** Default `tool_calls` when there are tool calls, else `stop` (translated for each dialect). */
  readonly finishReason?: 'stop' | 'length' | 'content_filter' | 'tool_calls';
  readonly usage?: { readonly promptTokens: number; readonly completionTokens: number };
  /** Extra response headers (e.g. `retry-after`, `location`). */
  readonly headers?: Readonly<Record<string, string>>;
  /** Replaces the whole response body with this raw text (to test malformed provider output). */
  readonly rawBody?: string;
  /** Destroys the connection without answering (to test network errors). */
  readonly dropConnection?: boolean;
}

/** A scripted tool call with its id decided and its arguments in both forms. */
export interface ResolvedToolCall {
  readonly id: string;
  /** Whether the script named the id (Gemini only sends ids that were scripted). */
  readonly scriptedId: boolean;
  readonly name: string;
  /** The arguments as JSON text, exactly as scripted when they were a string. */
  readonly argumentsText: string;
  /** The arguments as an object (`{}` when the scripted text was not a JSON object). */
  readonly argumentsObject: JsonObject;
}

/** A successful reply in the neutral form every dialect renders. */
export interface ResolvedReply {
  /** 1-based number of the answer, for ids. */
  readonly number: number;
  /** Assistant text; null when there is none (tool calls only, or a refusal). */
  readonly text: string | null;
  readonly refusal: string | null;
  readonly toolCalls: readonly ResolvedToolCall[];
  readonly finishReason: 'stop' | 'length' | 'content_filter' | 'tool_calls';
  readonly usage: { readonly inputTokens: number; readonly outputTokens: number };
}

/** Turns a scripted reply into the neutral form; `idPrefix` shapes default tool-call ids. */
export function resolveReply(reply: FakeChatReply, number: number, idPrefix: string): ResolvedReply {
  const toolCalls = (reply.toolCalls ?? []).map((call, i): ResolvedToolCall => {
    const argumentsText = typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments);
    return {
      id: call.id ?? `${idPrefix}${number}_${i + 1}`,
      scriptedId: call.id !== undefined,
      name: call.name,
      argumentsText,
      argumentsObject: typeof call.arguments === 'string' ? parseObject(call.arguments) : call.arguments,
    };
  });
  const text =
    reply.refusal !== undefined
      ? null
      : typeof reply.content === 'object' && reply.content !== null
        ? JSON.stringify(reply.content)
        : (reply.content ?? (toolCalls.length > 0 ? null : ''));
  return {
    number,
    text,
    refusal: reply.refusal ?? null,
    toolCalls,
    finishReason: reply.finishReason ?? (toolCalls.length > 0 ? 'tool_calls' : 'stop'),
    usage: { inputTokens: reply.usage?.promptTokens ?? 10, outputTokens: reply.usage?.completionTokens ?? 5 },
  };
}

function parseObject(text: string): JsonObject {
  try {
    const value = JSON.parse(text) as JsonValue;
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? value : {};
  } catch {
    return {};
  }
}

/** Splits text into a few pieces, so streaming clients are exercised on real accumulation. */
export function splitForStreaming(text: string, pieces = 3): string[] {
  const chars = Array.from(text); // code points, so no surrogate pair is split
  if (chars.length <= 1) return [text];
  const size = Math.ceil(chars.length / Math.min(pieces, chars.length));
  const parts: string[] = [];
  for (let i = 0; i < chars.length; i += size) parts.push(chars.slice(i, i + size).join(''));
  return parts;
}

/**
 * The reply with each scripted tool name that was not offered as such, but names exactly one
 * offered tool by its last part (`forecast` for `mcp_weather_forecast`, `mcp__weather__forecast`,
 * `weather_forecast`), sent under the offered name: one script works for every agent's naming.
 * A name no offered tool matches (a tool the agent was not given) or several match is kept as is.
 */
export function withOfferedToolNames(reply: ResolvedReply, offered: readonly string[]): ResolvedReply {
  const toolCalls = reply.toolCalls.map((call) => {
    if (offered.includes(call.name)) return call;
    const matches = offered.filter((name) => toolNameMatches(name, call.name));
    return matches.length === 1 ? { ...call, name: matches[0]! } : call;
  });
  return { ...reply, toolCalls };
}
