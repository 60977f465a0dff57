import type { CassetteRequest } from '../cassettes/CassetteFormat';
import { CassetteMissError } from './CassetteMissError';
import { M3Error } from './M3Error';

const chat = (last: string, extra: Record<string, unknown> = {}): CassetteRequest => ({
  method: 'POST',
  path: '/v1/chat/completions',
  headers: { 'content-type': 'application/json' },
  body: {
    messages: [
      { content: 'You are a calculator.', role: 'system' },
      { content: 'Hello', role: 'user' },
      { content: last, role: 'user' },
    ],
    model: 'gpt-4o-mini',
    temperature: 0,
    ...extra,
  } as CassetteRequest['body'],
});

const facts = {
  testName: 'calculator › adds',
  testPath: 'tests/agents.test.ts',
  channel: 'openai gpt-4o-mini trial 1',
  requestNumber: 2,
};

test('names the test, channel and request, summarizes it, diffs it against the nearest recorded one and says how to re-record', () => {
  const error = new CassetteMissError({ ...facts, request: chat('Add 2 and 4'), nearest: chat('Add 2 and 3') });
  expect(error).toBeInstanceOf(M3Error);
  expect(error.code).toBe('cassette_miss');
  expect(error.name).toBe('CassetteMissError');
  expect(error.details).toEqual({
    testName: 'calculator › adds',
    testPath: 'tests/agents.test.ts',
    channel: 'openai gpt-4o-mini trial 1',
    request: 2,
    method: 'POST',
    path: '/v1/chat/completions',
  });
  expect(error.message).toMatchSnapshot();
});

test('shows separate changes as separate groups with one line of context', () => {
  const error = new CassetteMissError({
    ...facts,
    request: chat('Add 2 and 4', { temperature: 1 }),
    nearest: chat('Add 2 and 3'),
  });
  expect(error.message).toMatchSnapshot();
});

test('says so when the channel has no recorded request, or when the request repeats more often than recorded', () => {
  expect(new CassetteMissError({ ...facts, request: chat('Add 2 and 4'), nearest: null }).message).toMatchSnapshot();
  expect(
    new CassetteMissError({ ...facts, request: chat('Add 2 and 4'), nearest: chat('Add 2 and 4') }).message,
  ).toMatchSnapshot();
});

test('stays under 4 000 characters and keeps the re-record command when the difference is huge', () => {
  const long = (n: number): CassetteRequest => ({
    ...chat('x'),
    body: {
      messages: Array.from({ length: 400 }, (_, i) => ({
        content: `message ${i} version ${n} ${'y'.repeat(300)}`,
        role: 'user',
      })),
    },
  });
  const error = new CassetteMissError({ ...facts, request: long(2), nearest: long(1) });
  expect(error.message.length).toBeLessThanOrEqual(4000);
  expect(error.message).toContain('400 messages, last user message "message 399 version 2 yyyy');
  expect(error.message.split('\n').at(-1)).toBe(
    '  re-record it: npx m3 test tests/agents.test.ts --update-cassettes   (or M3_CASSETTES=record)',
  );
});
