import type { ServerResponse } from 'node:http';
import type { JsonObject, JsonValue } from '../json';
import type { FakeDialect, RenderOptions } from './fakeModelDialect';
import { splitForStreaming, type ResolvedReply } from './fakeModelReply';
import { arrayOf, field, sendJson, sseEvent, startEventStream, stringOf } from './fakeHttp';
import {
  resolveToolResultNames,
  textOf,
  type FakeConversationView,
  type FakeMessageView,
  type FakeToolCallView,
  type FakeToolResultView,
} from './fakeModelRequest';

const STOP_REASONS = { stop: 'end_turn', length: 'max_tokens', content_filter: 'refusal', tool_calls: 'tool_use' };
const ERROR_TYPES: Readonly<Record<number, string>> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  529: 'overloaded_error',
};

/** Anthropic Messages: `POST /v1/messages`, JSON or `stream: true` server-sent events; `tool_use` / `tool_result` blocks. */
export const anthropicMessagesDialect: FakeDialect = {
  name: 'anthropic_messages',
  toolCallIdPrefix: 'toolu_fake_',
  route(method, path) {
    return method === 'POST' && path === '/v1/messages' ? {} : null;
  },
  read: readMessagesRequest,
  write(res, reply, options) {
    if (options.stream) writeMessageStream(res, reply, options);
    else sendJson(res, 200, message(reply, options, true), options.headers);
  },
  writeError(res, status, text, type, headers) {
    const errorType = ERROR_TYPES[status] ?? (status >= 500 ? 'api_error' : type);
    sendJson(res, status, { type: 'error', error: { type: errorType, message: text } }, headers);
  },
};

/** Text blocks of Anthropic content (a string or blocks) joined with newlines. */
function blocksText(content: JsonValue | undefined): string {
  if (typeof content === 'string') return content;
  return arrayOf(content)
    .filter((block) => field(block, 'type') === 'text')
    .map((block) => stringOf(field(block, 'text')) ?? '')
    .join('\n');
}

function readMessagesRequest(body: JsonValue | null): FakeConversationView {
  const messages: FakeMessageView[] = [];
  for (const entry of arrayOf(field(body, 'messages'))) {
    const content = field(entry, 'content');
    const blocks = arrayOf(content);
    const toolCalls: FakeToolCallView[] = blocks
      .filter((block) => field(block, 'type') === 'tool_use')
      .map((block) => ({
        id: stringOf(field(block, 'id')) ?? null,
        name: stringOf(field(block, 'name')) ?? '',
        arguments: field(block, 'input') ?? null,
      }));
    const toolResults: FakeToolResultView[] = blocks
      .filter((block) => field(block, 'type') === 'tool_result')
      .map((block) => {
        const result = field(block, 'content');
        return {
          callId: stringOf(field(block, 'tool_use_id')) ?? null,
          name: null,
          text: typeof result === 'string' || result === undefined ? textOf(result) : blocksText(result),
          isError: field(block, 'is_error') === true,
        };
      });
    const text = blocksText(content);
    const assistant = field(entry, 'role') === 'assistant';
    const role = assistant ? 'assistant' : toolResults.length > 0 && text.trim() === '' ? 'tool' : 'user';
    messages.push({ role, text, toolCalls, toolResults });
  }
  return {
    model: stringOf(field(body, 'model')) ?? null,
    stream: field(body, 'stream') === true,
    system: blocksText(field(body, 'system')),
    messages: resolveToolResultNames(messages),
    tools: arrayOf(field(body, 'tools')).map((tool) => ({
      name: stringOf(field(tool, 'name')) ?? '',
      description: stringOf(field(tool, 'description')) ?? '',
      parameters: field(tool, 'input_schema') ?? null,
    })),
  };
}

/** The reply's content blocks: text first (a refusal is sent as text), then `tool_use` blocks. */
function contentBlocks(reply: ResolvedReply): JsonObject[] {
  const blocks: JsonObject[] = [];
  const text = reply.text ?? reply.refusal;
  if (text !== null && (text.length > 0 || reply.toolCalls.length === 0)) blocks.push({ type: 'text', text });
  for (const call of reply.toolCalls) {
    blocks.push({ type: 'tool_use', id: call.id, name: call.name, input: call.argumentsObject });
  }
  return blocks;
}

function message(reply: ResolvedReply, options: RenderOptions, complete: boolean): JsonObject {
  return {
    id: `msg_fake_${reply.number}`,
    type: 'message',
    role: 'assistant',
    model: options.model,
    content: complete ? contentBlocks(reply) : [],
    stop_reason: complete ? STOP_REASONS[reply.finishReason] : null,
    stop_sequence: null,
    usage: {
      input_tokens: reply.usage.inputTokens,
      output_tokens: complete ? reply.usage.outputTokens : 1,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
    },
  };
}

/** The Messages streaming protocol: message_start, one start/delta.../stop triple per block, message_delta, message_stop. */
function writeMessageStream(res: ServerResponse, reply: ResolvedReply, options: RenderOptions): void {
  if (!startEventStream(res, options.headers)) return;
  const send = (type: string, data: JsonObject) => res.write(sseEvent({ type, ...data }, type));
  send('message_start', { message: message(reply, options, false) });
  contentBlocks(reply).forEach((block, index) => {
    if (block.type === 'text') {
      send('content_block_start', { index, content_block: { type: 'text', text: '' } });
      for (const text of splitForStreaming(String(block.text))) {
        send('content_block_delta', { index, delta: { type: 'text_delta', text } });
      }
    } else {
      send('content_block_start', { index, content_block: { ...block, input: {} } });
      for (const partial_json of splitForStreaming(JSON.stringify(block.input), 2)) {
        send('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json } });
      }
    }
    send('content_block_stop', { index });
  });
  send('message_delta', {
    delta: { stop_reason: STOP_REASONS[reply.finishReason], stop_sequence: null },
    usage: { output_tokens: reply.usage.outputTokens },
  });
  send('message_stop', {});
  res.end();
}
