import { existsSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { Redactor } from '../redaction/Redactor';
import { FakeModelServer } from '../testing/FakeModelServer';
import { bookOn, finishOpenBooks, readResponse, tempTestFile, type TempTestFile } from './cassette.testkit';
import type { CassetteRequest, CassetteResponse } from './CassetteFormat';

const T1 = 'quotes › a parcel';
const T2 = 'quotes › a pallet';
const CH = 'openai gpt-4o-mini trial 1';

const ask = (text: string): CassetteRequest => ({
  method: 'POST',
  path: '/v1/chat/completions',
  headers: { 'content-type': 'application/json' },
  body: { messages: [{ content: text, role: 'user' }], model: 'gpt-4o-mini' },
});
const answer = (text: string): CassetteResponse => ({
  status: 200,
  headers: { 'content-type': 'application/json' },
  body: { choices: [{ message: { content: text } }] },
});
const answerText = (response: CassetteResponse | null): string | null =>
  response === null
    ? null
    : (response.body as { choices: Array<{ message: { content: string } }> }).choices[0]!.message.content;

interface Saved {
  tests: Record<string, { channels: Record<string, Array<{ request: CassetteRequest; response: CassetteResponse }>> }>;
}

let file: TempTestFile;
beforeEach(() => {
  file = tempTestFile();
});
afterEach(async () => {
  await finishOpenBooks();
  file.remove();
});

const saved = (): Saved => JSON.parse(readFileSync(file.cassette, 'utf8')) as Saved;
/** The answers a test's channel holds in the file, in order. */
const answersIn = (test: string, channel = CH): Array<string | null> =>
  (saved().tests[test]?.channels[channel] ?? []).map((e) => answerText(e.response));

/** Writes a cassette through a `record` book: per test, per channel, [question, answer] pairs. */
async function recordFile(content: Record<string, Record<string, Array<[string, string]>>>): Promise<void> {
  const book = bookOn(file, 'record');
  for (const [test, channels] of Object.entries(content)) {
    const scope = book.scope(test);
    for (const [channel, pairs] of Object.entries(channels)) {
      for (const [q, a] of pairs) scope.tape(channel).record({ request: ask(q), response: answer(a) });
    }
  }
  await book.finish({ fullRun: true });
}

test('the n-th identical request gets the n-th recorded answer, then none', async () => {
  await recordFile({
    [T1]: {
      [CH]: [
        ['hi', 'first'],
        ['hi', 'second'],
        ['bye', 'third'],
      ],
    },
  });
  const tape = bookOn(file, 'replay').scope(T1).tape(CH);
  expect(answerText(tape.take(ask('hi')))).toBe('first');
  expect(answerText(tape.take(ask('bye')))).toBe('third');
  expect(answerText(tape.take(ask('hi')))).toBe('second');
  expect(tape.take(ask('hi'))).toBeNull();
});

test('matching ignores JSON key order: a request whose keys came in another order still matches', async () => {
  await recordFile({ [T1]: { [CH]: [['hi', 'first']] } });
  const tape = bookOn(file, 'replay').scope(T1).tape(CH);
  const reordered: CassetteRequest = {
    body: { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] },
    headers: { 'content-type': 'application/json' },
    path: '/v1/chat/completions',
    method: 'POST',
  };
  expect(answerText(tape.take(reordered))).toBe('first');
});

test('auto replays what is recorded and records only what is missing', async () => {
  await recordFile({ [T1]: { [CH]: [['hi', 'old']] } });
  const book = bookOn(file, 'auto');
  const tape = book.scope(T1).tape(CH);
  expect(answerText(tape.take(ask('hi')))).toBe('old');
  expect(tape.take(ask('new question'))).toBeNull();
  tape.record({ request: ask('new question'), response: answer('new') });
  expect(await book.finish({ fullRun: true })).toMatchObject({ replayed: 1, recorded: 1, obsolete: 0, written: true });
  expect(answersIn(T1)).toEqual(['old', 'new']);
});

test('record replaces what the channel had on its first record, and keeps the channels it did not touch', async () => {
  await recordFile({
    [T1]: {
      [CH]: [
        ['hi', 'old 1'],
        ['bye', 'old 2'],
      ],
      'judge gpt-4o-mini': [['grade', 'pass']],
    },
  });
  const book = bookOn(file, 'record');
  const tape = book.scope(T1).tape(CH);
  expect(tape.take(ask('hi'))).toBeNull(); // record sends everything live
  tape.record({ request: ask('hi'), response: answer('new 1') });
  expect(await book.finish({ fullRun: false })).toMatchObject({ recorded: 1, written: true });
  expect(answersIn(T1)).toEqual(['new 1']);
  expect(answersIn(T1, 'judge gpt-4o-mini')).toEqual(['pass']);
});

describe('obsolete entries', () => {
  beforeEach(async () => {
    await recordFile({
      [T1]: {
        [CH]: [
          ['hi', 'a'],
          ['bye', 'b'],
        ],
        'judge m': [['grade', 'c']],
      },
      [T2]: { [CH]: [['x', 'd']] },
    });
  });

  test('after a full run: tests that did not run, unused exchanges and unopened channels of tests that ran', async () => {
    const book = bookOn(file, 'replay');
    expect(answerText(book.scope(T1).tape(CH).take(ask('hi')))).toBe('a');
    expect(await book.finish({ fullRun: true })).toMatchObject({
      replayed: 1,
      obsolete: 3, // 'bye' in T1, the judge channel, and T2's one exchange
      obsoleteTests: [T2],
      written: false,
    });
  });

  test('are not counted when only part of the file ran', async () => {
    const book = bookOn(file, 'replay');
    book.scope(T1).tape(CH).take(ask('hi'));
    expect(await book.finish({ fullRun: false })).toMatchObject({ obsolete: 0, obsoleteTests: [] });
  });

  test('--update-cassettes after a full run removes them', async () => {
    const book = bookOn(file, 'record', true);
    book
      .scope(T1)
      .tape(CH)
      .record({ request: ask('hi'), response: answer('a2') });
    expect(await book.finish({ fullRun: true })).toMatchObject({
      recorded: 1,
      obsolete: 2 /* the judge channel and T2; the re-recorded channel is replaced, not obsolete */,
      obsoleteTests: [T2],
      written: true,
    });
    expect(Object.keys(saved().tests)).toEqual([T1]);
    expect(Object.keys(saved().tests[T1]!.channels)).toEqual([CH]);
    expect(answersIn(T1)).toEqual(['a2']);
  });

  test('--update-cassettes after a partial run keeps what did not run', async () => {
    const book = bookOn(file, 'record', true);
    book
      .scope(T1)
      .tape(CH)
      .record({ request: ask('hi'), response: answer('a2') });
    expect(await book.finish({ fullRun: false })).toMatchObject({ obsolete: 0, written: true });
    expect(Object.keys(saved().tests).sort()).toEqual([T2, T1].sort());
    expect(answersIn(T1, 'judge m')).toEqual(['c']);
  });

  test('a file left with no entry is removed', async () => {
    const book = bookOn(file, 'record', true);
    book.scope('another test');
    expect(await book.finish({ fullRun: true })).toMatchObject({ obsolete: 4, written: true });
    expect(existsSync(file.cassette)).toBe(false);
  });
});

test('a retry of a test starts again at the first answer and replaces what the failed attempt recorded', async () => {
  await recordFile({ [T1]: { [CH]: [['hi', 'recorded']] } });
  const book = bookOn(file, 'auto');
  const first = book.scope(T1).tape(CH);
  expect(answerText(first.take(ask('hi')))).toBe('recorded');
  first.record({ request: ask('flaky'), response: answer('from the failed attempt') });
  const retry = book.scope(T1).tape(CH);
  expect(answerText(retry.take(ask('hi')))).toBe('recorded');
  retry.record({ request: ask('steady'), response: answer('from the retry') });
  expect(await book.finish({ fullRun: true })).toMatchObject({ replayed: 1, recorded: 1 });
  expect(answersIn(T1)).toEqual(['recorded', 'from the retry']);
});

test('one scope gives one tape per channel key, and a channel opened twice with a key continues its positions', async () => {
  const fake = new FakeModelServer({ replies: [{ content: 'verdict 1' }, { content: 'verdict 2' }] });
  try {
    const { baseUrl } = await fake.start();
    const judge = async (book: ReturnType<typeof bookOn>, upstream: string): Promise<string[]> => {
      const scope = book.scope(T1);
      expect(scope.tape('judge m')).toBe(scope.tape('judge m'));
      const out: string[] = [];
      for (let call = 0; call < 2; call += 1) {
        const channel = await scope.openChannel({ channel: 'judge m', upstream, redactor: new Redactor() });
        const body = JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'grade it' }] });
        const read = await readResponse(await channel.fetch(`${upstream}/chat/completions`, { method: 'POST', body }));
        out.push((read.json as { choices: Array<{ message: { content: string } }> }).choices[0]!.message.content);
        await channel.close();
      }
      await book.finish({ fullRun: true });
      return out;
    };
    expect(await judge(bookOn(file, 'record'), baseUrl)).toEqual(['verdict 1', 'verdict 2']);
    expect(await judge(bookOn(file, 'replay'), 'http://127.0.0.1:9/v1')).toEqual(['verdict 1', 'verdict 2']);
  } finally {
    await fake.close();
  }
});

describe('the file', () => {
  test('is created with its folder, sorted, pretty-printed, newline-terminated, and byte-stable when nothing changed', async () => {
    await recordFile({ [T2]: { [CH]: [['x', 'd']] }, [T1]: { 'z channel': [['q', 'a']], [CH]: [['hi', 'b']] } });
    const text = readFileSync(file.cassette, 'utf8');
    expect(text.endsWith('}\n')).toBe(true);
    expect(text.startsWith('{\n  "schemaVersion": 1,\n  "tests": {\n')).toBe(true);
    expect(Object.keys(saved().tests)).toEqual([T2, T1].sort());
    expect(Object.keys(saved().tests[T1]!.channels)).toEqual([CH, 'z channel']);
    for (const mode of ['auto', 'record'] as const) {
      const book = bookOn(file, mode);
      const tape = book.scope(T1).tape(CH);
      if (mode === 'auto') tape.take(ask('hi'));
      else tape.record({ request: ask('hi'), response: answer('b') });
      expect(await book.finish({ fullRun: false })).toMatchObject({ written: false });
      expect(readFileSync(file.cassette, 'utf8')).toBe(text);
    }
  });

  test('is never written in replay, even when a test is missing from it', async () => {
    const book = bookOn(file, 'replay');
    const tape = book.scope(T1).tape(CH);
    expect(tape.take(ask('hi'))).toBeNull();
    tape.record({ request: ask('hi'), response: answer('b') });
    expect(await book.finish({ fullRun: true })).toMatchObject({ recorded: 0, written: false });
    expect(existsSync(dirname(file.cassette))).toBe(false);
  });

  test.each([
    [
      'another schemaVersion',
      '{\n  "schemaVersion": 2,\n  "tests": {}\n}\n',
      /has schemaVersion 2, and this sf-m3 reads version 1/,
    ],
    ['broken JSON', '{ "schemaVersion": 1, "tests": {', /is not valid JSON/],
    [
      'a wrong shape',
      '{ "schemaVersion": 1, "tests": { "t": { "channels": { "c": [{}] } } } }',
      /malformed exchanges in test "t", channel "c"/,
    ],
  ])('with %s is refused with its name and the fix, and left untouched', async (_what, content, reason) => {
    mkdirSync(dirname(file.cassette), { recursive: true });
    writeFileSync(file.cassette, content);
    const book = bookOn(file, 'auto');
    const scope = book.scope(T1);
    let error: unknown;
    try {
      scope.tape(CH);
    } catch (caught) {
      error = caught;
    }
    expect(error).toMatchObject({ code: 'cassette_file_invalid' });
    const message = (error as Error).message;
    expect(message).toContain(file.cassette);
    expect(message).toMatch(reason);
    expect(message).toContain(
      're-record it with `npx m3 test tests/agents.test.ts --update-cassettes`, or delete the file',
    );
    await expect(book.finish({ fullRun: true })).rejects.toMatchObject({ code: 'cassette_file_invalid' });
    expect(readFileSync(file.cassette, 'utf8')).toBe(content);
  });

  test('that cannot be read is replaced under --update-cassettes', async () => {
    mkdirSync(dirname(file.cassette), { recursive: true });
    writeFileSync(file.cassette, '{ "schemaVersion": 2 }');
    const book = bookOn(file, 'record', true);
    book
      .scope(T1)
      .tape(CH)
      .record({ request: ask('hi'), response: answer('fresh') });
    expect(await book.finish({ fullRun: true })).toMatchObject({ recorded: 1, written: true });
    expect(answersIn(T1)).toEqual(['fresh']);
  });
});
