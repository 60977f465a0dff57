import { Redactor } from '../../redaction/Redactor';
import { VolatileStrings } from '../VolatileStrings';
import { replayCassetteResponse, toCassetteResponse } from './cassetteResponse';

const volatile = new VolatileStrings(['/tmp/run-1']);
const redactor = new Redactor(['canary-12345678']);
const roundTrip = (contentType: string, body: string): string => {
  const stored = toCassetteResponse(
    200,
    { 'content-type': contentType, 'x-request-id': 'r1' },
    Buffer.from(body),
    volatile,
    redactor,
  );
  return replayCassetteResponse(stored, volatile).chunks.join('');
};

test.each([
  ['a JSON object', 'application/json', '{"a":[1,"/tmp/run-1/x"],"b":null}'],
  ['a JSON string', 'application/json', '"just text"'],
  ['a JSON number', 'application/json', '42'],
  ['plain text', 'text/plain', 'hello /tmp/run-1'],
  ['an empty body', 'application/json', ''],
])('%s replays as the same bytes', (_what, contentType, body) => {
  expect(roundTrip(contentType, body)).toBe(body);
});

test('an event stream is stored as its events and replayed with a blank line after each', () => {
  const stored = toCassetteResponse(
    200,
    { 'content-type': 'text/event-stream; charset=utf-8' },
    Buffer.from('event: a\r\ndata: {"x":1}\r\n\r\ndata: canary-12345678\n\ndata: [DONE]\n\n'),
    volatile,
    redactor,
  );
  expect(stored).toEqual({
    status: 200,
    headers: { 'content-type': 'text/event-stream; charset=utf-8' },
    events: ['event: a\ndata: {"x":1}', 'data: [REDACTED]', 'data: [DONE]'],
  });
  expect(replayCassetteResponse(stored, volatile).chunks).toEqual([
    'event: a\ndata: {"x":1}\n\n',
    'data: [REDACTED]\n\n',
    'data: [DONE]\n\n',
  ]);
});

test('only the content type is kept of the response headers', () => {
  const stored = toCassetteResponse(
    429,
    { 'content-type': 'application/json', 'set-cookie': ['a=b'], 'retry-after': '1' },
    Buffer.from('{}'),
    volatile,
    redactor,
  );
  expect(stored.headers).toEqual({ 'content-type': 'application/json' });
  expect(stored.status).toBe(429);
});
