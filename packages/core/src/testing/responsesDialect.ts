import type { ServerResponse } from 'node:http';
import type { JsonObject } from '../json';
import type { FakeDialect, RenderOptions } from './fakeModelDialect';
import { sendJson, sseEvent, startEventStream } from './fakeHttp';
import { splitForStreaming, type ResolvedReply, type ResolvedToolCall } from './fakeModelReply';
import type { FakeConversationView } from './fakeModelRequest';
import { callScript, discoveryReply, EXEC_TOOL } from './responsesCodeMode';
import { readResponsesRequest } from './responsesRequest';

const INCOMPLETE_REASONS = { length: 'max_output_tokens', content_filter: 'content_filter' } as const;

/**
 * OpenAI Responses, as Codex reads it: `POST /v1/responses` (and `/responses`), JSON or `stream: true`
 * server-sent events; `function_call` output items / `function_call_output` input items. A call of a
 * function offered inside a `namespace` tool is sent with that `namespace` and the function's own name.
 * Codex's code mode (`exec`, nested tools): calls become `exec` JavaScript, and the fake first lists the
 * nested tools Codex did not name (see `responsesCodeMode.ts`).
 */
export const responsesDialect: FakeDialect = {
  name: 'responses',
  toolCallIdPrefix: 'call_',
  route(method, path) {
    return method === 'POST' && (path === '/v1/responses' || path === '/responses') ? {} : null;
  },
  read: readResponsesRequest,
  ownReply: (request) => discoveryReply(request.body, request.system),
  write(res, reply, options) {
    if (options.stream) writeResponseStream(res, reply, options);
    else sendJson(res, 200, response(reply, options, outputItems(reply, options.request)), options.headers);
  },
  writeError(res, status, message, type, headers) {
    sendJson(res, status, { error: { message, type, param: null, code: null } }, headers);
  },
};

/** How a scripted call is sent: a function call (in a namespace), code-mode JavaScript in `exec`, or `exec` itself. */
export type CallTarget =
  | { readonly kind: 'function'; readonly name: string; readonly namespace?: string }
  | { readonly kind: 'nested'; readonly name: string }
  | { readonly kind: 'exec' };

/**
 * Where a scripted call goes. A function offered in a namespace, under its full name
 * (`mcp__example__shipping_quote`) or under its own name when no plain tool has that name and exactly one
 * namespace offers it (`shipping_quote`), is sent with `namespace`. In code mode a call of `exec` is sent as
 * it is, one of the other offered tools as a function call, and any other name (a nested tool by full or
 * own name, or one not offered) as JavaScript calling `tools.<name>` in `exec`. Anything else: as scripted.
 */
export function callTarget(request: FakeConversationView, name: string): CallTarget {
  const exact = request.tools.find((tool) => tool.name === name);
  if (request.codeMode && name === EXEC_TOOL) return { kind: 'exec' };
  if (exact?.codeMode) return { kind: 'nested', name };
  if (exact?.namespace !== undefined)
    return { kind: 'function', namespace: exact.namespace, name: name.slice(exact.namespace.length + 2) };
  if (exact) return { kind: 'function', name };
  const inner = request.tools.filter((tool) =>
    tool.codeMode
      ? tool.name.endsWith(`__${name}`)
      : tool.namespace !== undefined && tool.name === `${tool.namespace}__${name}`,
  );
  const only = inner.length === 1 ? inner[0]! : undefined;
  if (only?.codeMode) return { kind: 'nested', name: only.name };
  if (only) return { kind: 'function', namespace: only.namespace!, name };
  return request.codeMode && /^[A-Za-z_$][\w$]*$/.test(name) ? { kind: 'nested', name } : { kind: 'function', name };
}

function callItem(reply: ResolvedReply, call: ResolvedToolCall, index: number, request: FakeConversationView) {
  const target = callTarget(request, call.name);
  if (target.kind !== 'function') {
    return {
      id: `ctc_fake_${reply.number}_${index + 1}`,
      type: 'custom_tool_call',
      status: 'completed',
      call_id: call.id,
      name: EXEC_TOOL,
      input: target.kind === 'exec' ? call.argumentsText : callScript(target.name, call.argumentsText),
    };
  }
  const item: JsonObject = {
    id: `fc_fake_${reply.number}_${index + 1}`,
    type: 'function_call',
    status: 'completed',
    call_id: call.id,
    name: target.name,
    arguments: call.argumentsText,
  };
  if (target.namespace !== undefined) item.namespace = target.namespace;
  return item;
}

/** The reply's output items: an assistant message (text, or a refusal part) when there is one, then function calls. */
function outputItems(reply: ResolvedReply, request: FakeConversationView): JsonObject[] {
  const items: JsonObject[] = [];
  const part: JsonObject | null =
    reply.refusal !== null
      ? { type: 'refusal', refusal: reply.refusal }
      : reply.text !== null && (reply.text.length > 0 || reply.toolCalls.length === 0)
        ? { type: 'output_text', text: reply.text, annotations: [] }
        : null;
  if (part) {
    items.push({
      id: `msg_fake_${reply.number}`,
      type: 'message',
      status: 'completed',
      role: 'assistant',
      content: [part],
    });
  }
  reply.toolCalls.forEach((call, i) => items.push(callItem(reply, call, i, request)));
  return items;
}

function status(reply: ResolvedReply): 'completed' | 'incomplete' {
  return reply.finishReason === 'length' || reply.finishReason === 'content_filter' ? 'incomplete' : 'completed';
}

/** The response object; `output` empty and status `in_progress` for the stream's first events. */
function response(reply: ResolvedReply, options: RenderOptions, output: JsonObject[] | null): JsonObject {
  const { inputTokens, outputTokens } = reply.usage;
  const done = output !== null;
  const state = done ? status(reply) : 'in_progress';
  const reason = reply.finishReason === 'length' || reply.finishReason === 'content_filter' ? reply.finishReason : null;
  return {
    id: `resp_fake_${reply.number}`,
    object: 'response',
    created_at: Math.floor(Date.now() / 1000),
    status: state,
    error: null,
    incomplete_details: done && reason !== null ? { reason: INCOMPLETE_REASONS[reason] } : null,
    model: options.model,
    output: output ?? [],
    parallel_tool_calls: true,
    tool_choice: 'auto',
    usage: done
      ? {
          input_tokens: inputTokens,
          input_tokens_details: { cached_tokens: 0 },
          output_tokens: outputTokens,
          output_tokens_details: { reasoning_tokens: 0 },
          total_tokens: inputTokens + outputTokens,
        }
      : null,
  };
}

/**
 * The Responses streaming protocol: `response.created`, `response.in_progress`, per output item
 * `output_item.added`, its content (`content_part.added`, `output_text.delta`..., `output_text.done`,
 * `content_part.done`; or `function_call_arguments.delta`..., `.done`), `output_item.done`; then
 * `response.completed` (or `response.incomplete`) with usage.
 */
function writeResponseStream(res: ServerResponse, reply: ResolvedReply, options: RenderOptions): void {
  if (!startEventStream(res, options.headers)) return;
  let sequence = 0;
  const send = (type: string, data: JsonObject) =>
    res.write(sseEvent({ type, sequence_number: sequence++, ...data }, type));
  send('response.created', { response: response(reply, options, null) });
  send('response.in_progress', { response: response(reply, options, null) });
  const items = outputItems(reply, options.request);
  items.forEach((item, output_index) => {
    const item_id = item.id as string;
    if (item.type === 'message') {
      send('response.output_item.added', { output_index, item: { ...item, status: 'in_progress', content: [] } });
      const part = (item.content as JsonObject[])[0]!;
      const content_index = 0;
      const at = { item_id, output_index, content_index };
      const text = String(part.type === 'refusal' ? part.refusal : part.text);
      const kind = part.type === 'refusal' ? 'refusal' : 'output_text';
      const empty = part.type === 'refusal' ? { ...part, refusal: '' } : { ...part, text: '' };
      send('response.content_part.added', { ...at, part: empty });
      for (const delta of splitForStreaming(text)) send(`response.${kind}.delta`, { ...at, delta });
      send(`response.${kind}.done`, { ...at, [kind === 'refusal' ? 'refusal' : 'text']: text });
      send('response.content_part.done', { ...at, part });
      send('response.output_item.done', { output_index, item });
    } else if (item.type === 'custom_tool_call') {
      send('response.output_item.added', { output_index, item: { ...item, status: 'in_progress', input: '' } });
      const input = String(item.input);
      for (const delta of splitForStreaming(input, 2)) {
        send('response.custom_tool_call_input.delta', { item_id, output_index, delta });
      }
      send('response.custom_tool_call_input.done', { item_id, output_index, input });
      send('response.output_item.done', { output_index, item });
    } else {
      send('response.output_item.added', { output_index, item: { ...item, status: 'in_progress', arguments: '' } });
      const args = String(item.arguments);
      for (const delta of splitForStreaming(args, 2)) {
        send('response.function_call_arguments.delta', { item_id, output_index, delta });
      }
      send('response.function_call_arguments.done', { item_id, output_index, arguments: args });
      send('response.output_item.done', { output_index, item });
    }
  });
  const final = response(reply, options, items);
  send(final.status === 'incomplete' ? 'response.incomplete' : 'response.completed', { response: final });
  res.end();
}
