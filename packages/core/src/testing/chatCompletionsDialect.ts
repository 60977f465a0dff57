import type { ServerResponse } from 'node:http';
import type { JsonObject, JsonValue } from '../json';
import type { FakeDialect, RenderOptions } from './fakeModelDialect';
import type { ResolvedReply } from './fakeModelReply';
import { arrayOf, field, sendJson, startEventStream, stringOf } from './fakeHttp';
import {
  parseArguments,
  resolveToolResultNames,
  textOf,
  type FakeConversationView,
  type FakeMessageView,
  type FakeToolView,
} from './fakeModelRequest';

/** OpenAI Chat Completions: `POST /v1/chat/completions` (and `/chat/completions`), JSON or `stream: true` chunks. */
export const chatCompletionsDialect: FakeDialect = {
  name: 'chat_completions',
  toolCallIdPrefix: 'call_',
  route(method, path) {
    return method === 'POST' && (path === '/v1/chat/completions' || path === '/chat/completions') ? {} : null;
  },
  read: readChatRequest,
  write(res, reply, options) {
    const completion = chatCompletion(reply, options);
    if (options.stream) writeChatStream(res, completion, options.headers);
    else sendJson(res, 200, completion, options.headers);
  },
  writeError(res, status, message, type, headers) {
    sendJson(res, status, { error: { message, type, code: null } }, headers);
  },
};

/** Text of Chat content: a string or an array of `{ type: 'text', text }` parts. */
function contentText(content: JsonValue | undefined): string {
  if (typeof content === 'string') return content;
  return arrayOf(content)
    .map((part) => stringOf(field(part, 'text')) ?? '')
    .filter((t) => t.length > 0)
    .join('\n');
}

function readChatRequest(body: JsonValue | null): FakeConversationView {
  const system: string[] = [];
  const messages: FakeMessageView[] = [];
  for (const message of arrayOf(field(body, 'messages'))) {
    const role = stringOf(field(message, 'role'));
    const text = contentText(field(message, 'content'));
    if (role === 'system' || role === 'developer') {
      if (text.length > 0) system.push(text);
    } else if (role === 'tool') {
      const callId = stringOf(field(message, 'tool_call_id')) ?? null;
      messages.push({
        role: 'tool',
        text: '',
        toolCalls: [],
        toolResults: [{ callId, name: null, text, isError: false }],
      });
    } else {
      const toolCalls = arrayOf(field(message, 'tool_calls')).map((call) => ({
        id: stringOf(field(call, 'id')) ?? null,
        name: stringOf(field(field(call, 'function'), 'name')) ?? '',
        arguments: parseArguments(textOf(field(field(call, 'function'), 'arguments'))),
      }));
      messages.push({ role: role === 'assistant' ? 'assistant' : 'user', text, toolCalls, toolResults: [] });
    }
  }
  // Consecutive tool messages answer one round; keep them as one message so "the last message" holds them all.
  const merged: FakeMessageView[] = [];
  for (const message of messages) {
    const previous = merged.at(-1);
    if (message.role === 'tool' && previous?.role === 'tool') {
      merged[merged.length - 1] = { ...previous, toolResults: [...previous.toolResults, ...message.toolResults] };
    } else merged.push(message);
  }
  const tools: FakeToolView[] = arrayOf(field(body, 'tools')).map((tool) => {
    const fn = field(tool, 'function');
    return {
      name: stringOf(field(fn, 'name')) ?? '',
      description: stringOf(field(fn, 'description')) ?? '',
      parameters: field(fn, 'parameters') ?? null,
    };
  });
  return {
    model: stringOf(field(body, 'model')) ?? null,
    stream: field(body, 'stream') === true,
    system: system.join('\n'),
    messages: resolveToolResultNames(merged),
    tools,
  };
}

function chatCompletion(reply: ResolvedReply, options: RenderOptions): JsonObject {
  const toolCalls = reply.toolCalls.map((call) => ({
    id: call.id,
    type: 'function',
    function: { name: call.name, arguments: call.argumentsText },
  }));
  const message: JsonObject = { role: 'assistant', content: reply.text, refusal: reply.refusal };
  if (toolCalls.length > 0) message.tool_calls = toolCalls;
  const { inputTokens, outputTokens } = reply.usage;
  return {
    id: `chatcmpl-fake-${reply.number}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: options.model,
    choices: [{ index: 0, message, finish_reason: reply.finishReason, logprobs: null }],
    usage: { prompt_tokens: inputTokens, completion_tokens: outputTokens, total_tokens: inputTokens + outputTokens },
  };
}

/** Answers a `stream: true` request as server-sent `chat.completion.chunk` events, then `[DONE]`. */
function writeChatStream(res: ServerResponse, completion: JsonObject, headers: Readonly<Record<string, string>>): void {
  if (!startEventStream(res, headers)) return;
  const choice = (completion.choices as JsonObject[])[0]!;
  const message = choice.message as JsonObject;
  const base = {
    id: completion.id,
    object: 'chat.completion.chunk',
    created: completion.created,
    model: completion.model,
  };
  const chunk = (delta: JsonObject, finishReason: JsonValue, usage?: JsonValue): string =>
    `data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta, finish_reason: finishReason, logprobs: null }], ...(usage !== undefined ? { usage } : {}) })}\n\n`;
  const delta: JsonObject = { role: 'assistant', content: message.content ?? null };
  if (message.refusal !== null) delta.refusal = message.refusal;
  if (Array.isArray(message.tool_calls)) {
    delta.tool_calls = message.tool_calls.map((call, index) => ({ index, ...(call as JsonObject) }));
  }
  res.write(chunk(delta, null));
  res.write(chunk({}, choice.finish_reason ?? 'stop', completion.usage));
  res.end('data: [DONE]\n\n');
}
