import type { ServerResponse } from 'node:http';
import type { JsonValue } from '../json';
import { sendJson } from './fakeHttp';
import type { RecordedChatRequest } from './fakeModelRequest';

/**
 * Fixed answers to the small requests real agents make around generation (model listings, token
 * counting), so they run offline against the fake. Returns false when the route is not one of them.
 *
 * - `GET /v1/models`, `GET /v1/models/<id>`: OpenAI list shape, or Anthropic's when `anthropic-version` is sent.
 * - `POST /v1/messages/count_tokens`: `{ input_tokens }`.
 * - `GET /v1beta/models`, `GET /v1beta/models/<id>`, `POST /v1beta/models/<id>:countTokens`: Gemini shapes.
 */
export function answerSideRequest(
  request: RecordedChatRequest,
  rawBody: string,
  models: readonly string[],
  res: ServerResponse,
): boolean {
  const { method, path } = request;
  const estimate = Math.max(1, Math.ceil(rawBody.length / 4));
  const anthropic = request.headers['anthropic-version'] !== undefined;
  if (method === 'GET' && path === '/v1/models') {
    sendJson(res, 200, anthropic ? anthropicList(models) : openAiList(models));
    return true;
  }
  const single = /^\/v1\/models\/([^/]+)$/.exec(path);
  if (method === 'GET' && single) {
    const id = decodeURIComponent(single[1]!);
    sendJson(res, 200, anthropic ? anthropicModel(id) : openAiModel(id));
    return true;
  }
  if (method === 'POST' && path === '/v1/messages/count_tokens') {
    sendJson(res, 200, { input_tokens: estimate });
    return true;
  }
  const gemini = /^\/(?:v1beta|v1alpha|v1)\/models(?:\/([^/:]+))?(?::(countTokens))?$/.exec(path);
  if (gemini && method === 'GET' && gemini[2] === undefined) {
    const id = gemini[1];
    sendJson(res, 200, id === undefined ? { models: models.map(geminiModel) } : geminiModel(decodeURIComponent(id)));
    return true;
  }
  if (gemini && method === 'POST' && gemini[2] === 'countTokens') {
    sendJson(res, 200, { totalTokens: estimate });
    return true;
  }
  return false;
}

const openAiModel = (id: string): JsonValue => ({
  id,
  object: 'model',
  created: 1_700_000_000,
  owned_by: 'sf-m3-fake',
});
const openAiList = (models: readonly string[]): JsonValue => ({ object: 'list', data: models.map(openAiModel) });
const anthropicModel = (id: string): JsonValue => ({
  type: 'model',
  id,
  display_name: id,
  created_at: '2025-01-01T00:00:00Z',
});
const anthropicList = (models: readonly string[]): JsonValue => ({
  data: models.map(anthropicModel),
  has_more: false,
  first_id: models[0] ?? null,
  last_id: models.at(-1) ?? null,
});
const geminiModel = (id: string): JsonValue => ({
  name: id.startsWith('models/') ? id : `models/${id}`,
  displayName: id,
  inputTokenLimit: 1_048_576,
  outputTokenLimit: 65_536,
  supportedGenerationMethods: ['generateContent', 'streamGenerateContent', 'countTokens'],
});
