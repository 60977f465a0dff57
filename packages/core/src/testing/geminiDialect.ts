import type { JsonObject, JsonValue } from '../json';
import type { FakeDialect, RenderOptions } from './fakeModelDialect';
import { splitForStreaming, type ResolvedReply } from './fakeModelReply';
import { arrayOf, field, sendJson, sseEvent, startEventStream, stringOf } from './fakeHttp';
import {
  resolveToolResultNames,
  textOf,
  type FakeConversationView,
  type FakeMessageView,
  type FakeToolView,
} from './fakeModelRequest';

/** `/v1beta/models/<model>:generateContent` and `:streamGenerateContent` (also under `/v1` and `/v1alpha`). */
const GENERATE_ROUTE = /^\/(?:v1beta|v1alpha|v1)\/models\/([^/:]+):(generateContent|streamGenerateContent)$/;
const FINISH_REASONS = { stop: 'STOP', length: 'MAX_TOKENS', content_filter: 'SAFETY', tool_calls: 'STOP' };
const ERROR_STATUSES: Readonly<Record<number, string>> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
};

/** Gemini API: `generateContent` (JSON) and `streamGenerateContent` (`alt=sse` events, else a JSON array). */
export const geminiDialect: FakeDialect = {
  name: 'gemini',
  toolCallIdPrefix: 'fc_fake_',
  route(method, path, query) {
    const match = method === 'POST' ? GENERATE_ROUTE.exec(path) : null;
    if (!match) return null;
    const stream = match[2] === 'streamGenerateContent';
    return { model: decodeURIComponent(match[1]!), stream, sse: stream && query.get('alt') === 'sse' };
  },
  read: readGenerateRequest,
  write(res, reply, options) {
    if (!options.stream)
      return sendJson(res, 200, response(reply, options, contentParts(reply), true), options.headers);
    const chunks = streamChunks(reply, options);
    if (!options.route.sse) return sendJson(res, 200, chunks, options.headers);
    if (!startEventStream(res, options.headers)) return;
    for (const chunk of chunks) res.write(sseEvent(chunk));
    res.end();
  },
  writeError(res, status, message, _type, headers) {
    const code = ERROR_STATUSES[status] ?? (status >= 500 ? 'INTERNAL' : 'FAILED_PRECONDITION');
    sendJson(res, status, { error: { code: status, message, status: code } }, headers);
  },
};

/** Text parts joined with newlines; thought parts are left out. */
function partsText(parts: JsonValue[]): string {
  return parts
    .filter((part) => typeof field(part, 'text') === 'string' && field(part, 'thought') !== true)
    .map((part) => stringOf(field(part, 'text'))!)
    .join('\n');
}

/** A function response's text: a lone `output` string as it is, anything else as JSON. */
function responseText(response: JsonValue | undefined): string {
  const output = field(response, 'output');
  if (typeof output === 'string' && Object.keys(response as JsonObject).length === 1) return output;
  return textOf(response);
}

function readGenerateRequest(
  body: JsonValue | null,
  route: { model?: string; stream?: boolean },
): FakeConversationView {
  const messages: FakeMessageView[] = [];
  for (const content of arrayOf(field(body, 'contents'))) {
    const parts = arrayOf(field(content, 'parts'));
    const toolCalls = parts
      .map((part) => field(part, 'functionCall'))
      .filter((call) => call !== undefined)
      .map((call) => ({
        id: stringOf(field(call, 'id')) ?? null,
        name: stringOf(field(call, 'name')) ?? '',
        arguments: field(call, 'args') ?? {},
      }));
    const toolResults = parts
      .map((part) => field(part, 'functionResponse'))
      .filter((result) => result !== undefined)
      .map((result) => ({
        callId: stringOf(field(result, 'id')) ?? null,
        name: stringOf(field(result, 'name')) ?? null,
        text: responseText(field(result, 'response')),
        isError: field(field(result, 'response'), 'error') !== undefined,
      }));
    const text = partsText(parts);
    const model = field(content, 'role') === 'model';
    const role = model ? 'assistant' : toolResults.length > 0 && text.trim() === '' ? 'tool' : 'user';
    messages.push({ role, text, toolCalls, toolResults });
  }
  const instruction = field(body, 'systemInstruction');
  const tools: FakeToolView[] = arrayOf(field(body, 'tools')).flatMap((tool) =>
    arrayOf(field(tool, 'functionDeclarations')).map((fn) => ({
      name: stringOf(field(fn, 'name')) ?? '',
      description: stringOf(field(fn, 'description')) ?? '',
      parameters: field(fn, 'parametersJsonSchema') ?? field(fn, 'parameters') ?? null,
    })),
  );
  return {
    model: route.model ?? null,
    stream: route.stream === true,
    system: typeof instruction === 'string' ? instruction : partsText(arrayOf(field(instruction, 'parts'))),
    messages: resolveToolResultNames(messages),
    tools,
  };
}

/** Text part first (a refusal is sent as text), then one `functionCall` part per tool call. */
function contentParts(reply: ResolvedReply): JsonObject[] {
  const parts: JsonObject[] = [];
  const text = reply.text ?? reply.refusal;
  if (text !== null && (text.length > 0 || reply.toolCalls.length === 0)) parts.push({ text });
  for (const call of reply.toolCalls) {
    const functionCall: JsonObject = { name: call.name, args: call.argumentsObject };
    if (call.scriptedId) functionCall.id = call.id;
    parts.push({ functionCall });
  }
  return parts;
}

function response(reply: ResolvedReply, options: RenderOptions, parts: JsonObject[], last: boolean): JsonObject {
  const candidate: JsonObject = { content: { role: 'model', parts }, index: 0 };
  if (last) candidate.finishReason = FINISH_REASONS[reply.finishReason];
  const { inputTokens, outputTokens } = reply.usage;
  return {
    candidates: [candidate],
    usageMetadata: last
      ? {
          promptTokenCount: inputTokens,
          candidatesTokenCount: outputTokens,
          totalTokenCount: inputTokens + outputTokens,
        }
      : { promptTokenCount: inputTokens, totalTokenCount: inputTokens },
    modelVersion: options.model,
    responseId: `fake-response-${reply.number}`,
  };
}

/** A stream: the text in a few chunks, then the function calls with the finish reason and usage. */
function streamChunks(reply: ResolvedReply, options: RenderOptions): JsonObject[] {
  const parts = contentParts(reply);
  const textPart = parts[0] !== undefined && 'text' in parts[0] ? parts[0] : null;
  const calls = textPart ? parts.slice(1) : parts;
  const pieces = textPart ? splitForStreaming(String(textPart.text)) : [];
  const chunks = pieces.map((text) => response(reply, options, [{ text }], false));
  if (calls.length > 0 || chunks.length === 0) chunks.push(response(reply, options, calls, true));
  else chunks[chunks.length - 1] = response(reply, options, [{ text: pieces.at(-1)! }], true);
  return chunks;
}
