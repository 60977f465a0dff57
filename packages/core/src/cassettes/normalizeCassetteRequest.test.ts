import { Redactor } from '../redaction/Redactor';
import { cassetteRequestKey } from './cassetteRequestKey';
import { normalizeCassetteRequest, VOLATILE_BODY_FIELDS } from './normalizeCassetteRequest';

const redactor = new Redactor(['canary-4f9a8b7c']);

test('JSON bodies: volatile fields removed at any depth, keys sorted, volatile strings numbered, then redacted', () => {
  const body = {
    stream_options: { include_usage: true },
    model: 'gpt-4o-mini',
    user: 'u-123',
    metadata: { run: 'r1' },
    store: false,
    messages: [
      { role: 'user', content: 'read /tmp/m3-abc/notes.txt on port 41235', timestamp: 17 },
      { role: 'assistant', content: [{ type: 'text', text: 'token canary-4f9a8b7c', created: 1 }] },
    ],
    tools: [{ type: 'function', function: { name: 'read', parameters: { properties: { user: { type: 'string' } } } } }],
    prompt_cache_key: 'k',
    session_id: 's',
    safety_identifier: 'x',
    service_tier: 'auto',
    client_metadata: {},
    request_id: 'r',
    idempotency_key: 'i',
    api_key: 'sk-abcdef1234567890',
  };
  const normalized = normalizeCassetteRequest(
    { method: 'post', path: '/v1/chat/completions', headers: {}, body: JSON.stringify(body) },
    { volatileStrings: ['41235', '/tmp/m3-abc'], redactor },
  );
  expect(JSON.stringify(normalized.body)).toBe(
    JSON.stringify({
      api_key: '[REDACTED]',
      messages: [
        { content: 'read <volatile:2>/notes.txt on port <volatile:1>', role: 'user' },
        { content: [{ text: 'token [REDACTED]', type: 'text' }], role: 'assistant' },
      ],
      model: 'gpt-4o-mini',
      tools: [{ function: { name: 'read', parameters: { properties: {} } }, type: 'function' }],
    }),
  );
  expect(normalized.method).toBe('POST');
  expect([...VOLATILE_BODY_FIELDS].sort()).toEqual(
    [
      'user',
      'metadata',
      'prompt_cache_key',
      'session_id',
      'safety_identifier',
      'store',
      'stream_options',
      'service_tier',
      'client_metadata',
      'request_id',
      'idempotency_key',
      'timestamp',
      'created',
    ].sort(),
  );
});

test('headers: only the allowlist is kept, lower-case; keys, tokens, cookies and user agents are dropped', () => {
  const normalized = normalizeCassetteRequest(
    {
      method: 'POST',
      path: '/v1/messages',
      headers: {
        'Content-Type': 'application/json',
        Accept: 'text/event-stream',
        'anthropic-version': '2023-06-01',
        'anthropic-beta': 'tools-2024',
        'OpenAI-Beta': 'assistants=v2',
        authorization: 'Bearer sk-live-abcdef123456',
        'x-api-key': 'sk-ant-abcdef123456',
        cookie: 'session=abcdef123456',
        'user-agent': 'claude-cli/1.2.3',
        'x-stainless-retry-count': '0',
      },
      body: null,
    },
    { redactor },
  );
  expect(normalized.headers).toEqual({
    accept: 'text/event-stream',
    'anthropic-beta': 'tools-2024',
    'anthropic-version': '2023-06-01',
    'content-type': 'application/json',
    'openai-beta': 'assistants=v2',
  });
  expect(Object.keys(normalized.headers)).toEqual(Object.keys(normalized.headers).sort());
  expect(normalized.body).toBeNull();
});

test('`accept: */*` counts as no accept header (some HTTP stacks add it)', () => {
  const withStar = normalizeCassetteRequest(
    { method: 'GET', path: '/v1/models', headers: { accept: '*/*' }, body: '' },
    { redactor },
  );
  const without = normalizeCassetteRequest(
    { method: 'GET', path: '/v1/models', headers: {}, body: null },
    { redactor },
  );
  expect(cassetteRequestKey(withStar)).toBe(cassetteRequestKey(without));
});

test('the path keeps its query, with credential parameters redacted', () => {
  const normalized = normalizeCassetteRequest(
    {
      method: 'POST',
      path: '/v1beta/models/g:generateContent?alt=sse&key=AIzaSyabcdef123456',
      headers: {},
      body: null,
    },
    { redactor },
  );
  expect(normalized.path).toBe('/v1beta/models/g:generateContent?alt=sse&key=[REDACTED]');
});

test('text bodies: volatile strings replaced, then redacted', () => {
  const normalized = normalizeCassetteRequest(
    { method: 'POST', path: '/x', headers: {}, body: Buffer.from('cwd=/tmp/run-9 secret canary-4f9a8b7c') },
    { volatileStrings: ['/tmp/run-9'], redactor },
  );
  expect(normalized.body).toBe('cwd=<volatile:1> secret [REDACTED]');
});

test('the match key does not depend on key order, and does depend on every compared part', () => {
  const base = { method: 'POST', path: '/v1/responses', headers: { 'content-type': 'application/json' } };
  const a = normalizeCassetteRequest({ ...base, body: '{"b":1,"a":{"y":2,"x":3}}' }, { redactor });
  const b = normalizeCassetteRequest({ ...base, body: '{"a":{"x":3,"y":2},"b":1}' }, { redactor });
  expect(cassetteRequestKey(a)).toBe(cassetteRequestKey(b));
  for (const other of [
    { ...base, body: '{"a":{"x":3,"y":2},"b":2}' },
    { ...base, path: '/v1/responses?x=1', body: '{"a":{"x":3,"y":2},"b":1}' },
    { ...base, method: 'PUT', body: '{"a":{"x":3,"y":2},"b":1}' },
    { ...base, headers: { 'content-type': 'text/plain' }, body: '{"a":{"x":3,"y":2},"b":1}' },
  ]) {
    expect(cassetteRequestKey(normalizeCassetteRequest(other, { redactor }))).not.toBe(cassetteRequestKey(a));
  }
});
