import { readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { CassetteMode } from '../cassettes/CassetteMode';
import { openCassetteBook } from '../cassettes/FileCassetteBook';
import { MCPTestKit } from '../kit/MCPTestKit';
import { Redactor } from '../redaction/Redactor';
import { makePrivateTempDir } from '../tempfiles/privateTempDir';
import { FakeModelServer } from '../testing/FakeModelServer';
import { JudgeErrorCode } from './JudgeErrorCode';
import { LLMJudge, type JudgeVerdict } from './LLMJudge';

// LLMJudge recorded against a live FakeModelServer through the real cassette book, then replayed
// from a new book with the endpoint at a closed port and no key (contract §24).

const TEST_NAME = 'the answer satisfies the judge';
const KEY_ENV = 'M3_CASSETTE_TEST_JUDGE_KEY';
const KEY = 'sk-judge-cassette-key-3j8d2k';
const CLOSED_PORT_URL = 'http://127.0.0.1:9/v1';
const SUBJECT = { input: 'What is 2+2?', expected: '4', actual: 'The answer is 4.' };

let folder: string;

beforeEach(async () => {
  folder = await makePrivateTempDir('m3-judge-cassette-');
  delete process.env[KEY_ENV];
});

afterEach(async () => {
  delete process.env[KEY_ENV];
  await rm(folder, { recursive: true, force: true });
});

const judgeAt = (baseUrl: string) =>
  new LLMJudge({ model: 'fake-judge', baseUrl, apiKeyEnv: KEY_ENV, responseMode: 'json_text', maxRetries: 1 });

/** One "run" of the test file: a book, the test's scope, the given judgements, the file's report. */
async function judgeRun(mode: CassetteMode, baseUrl: string, subjects: readonly (typeof SUBJECT)[]) {
  const book = openCassetteBook({
    testFile: join(folder, 'judge.test.ts'),
    testPath: 'judge.test.ts',
    settings: { mode, update: false },
  });
  const scope = book.scope(TEST_NAME);
  const judge = judgeAt(baseUrl);
  const verdicts: JudgeVerdict[] = [];
  for (const subject of subjects)
    verdicts.push(await judge.judge(subject, { cassette: scope, redactor: new Redactor() }));
  return { verdicts, report: await book.finish({ fullRun: true }) };
}

/** What a replay must reproduce: the verdict, not its timing or request id. */
const decision = (v: JudgeVerdict) => ({
  status: v.status,
  score: v.score,
  rationale: v.rationale,
  errorCode: v.errorCode,
});

describe('LLMJudge on cassette', () => {
  it('records verdicts live, then replays them with no endpoint and no key', async () => {
    const fake = new FakeModelServer().enqueue(
      { content: JSON.stringify({ score: 0.9, rationale: 'says 4, as expected', abstain: false }) },
      { content: JSON.stringify({ score: 0.2, rationale: 'says 5; expected 4', abstain: false }) },
    );
    const { baseUrl } = await fake.start();
    process.env[KEY_ENV] = KEY;
    const wrong = { ...SUBJECT, actual: 'The answer is 5.' };
    let recorded: Awaited<ReturnType<typeof judgeRun>>;
    try {
      recorded = await judgeRun('record', baseUrl, [SUBJECT, wrong]);
    } finally {
      await fake.close();
    }
    expect(recorded.verdicts.map((v) => v.status)).toEqual(['passed', 'failed']);
    expect(recorded.verdicts.map((v) => v.provenance.cassette)).toEqual(['recorded', 'recorded']);
    expect(recorded.report).toMatchObject({ recorded: 2, written: true });
    const bytes = readFileSync(recorded.report.file, 'utf8');
    expect(
      Object.keys((JSON.parse(bytes) as { tests: Record<string, { channels: object }> }).tests[TEST_NAME]!.channels),
    ).toEqual(['judge fake-judge']);
    expect(bytes).not.toContain(KEY);
    expect(bytes.toLowerCase()).not.toContain('bearer');

    delete process.env[KEY_ENV];
    const replayed = await judgeRun('replay', CLOSED_PORT_URL, [SUBJECT, wrong]);
    expect(replayed.verdicts.map(decision)).toEqual(recorded.verdicts.map(decision));
    expect(replayed.verdicts.map((v) => v.provenance.cassette)).toEqual(['replayed', 'replayed']);
    expect(replayed.report).toMatchObject({ replayed: 2, recorded: 0, written: false });
  }, 30_000);

  it('a changed subject in replay is an error verdict cassette_miss with the diff, never retried or sent', async () => {
    const fake = new FakeModelServer().enqueue({
      content: JSON.stringify({ score: 0.9, rationale: 'says 4, as expected', abstain: false }),
    });
    const { baseUrl } = await fake.start();
    process.env[KEY_ENV] = KEY;
    try {
      await judgeRun('record', baseUrl, [SUBJECT]);
    } finally {
      await fake.close();
    }
    delete process.env[KEY_ENV];
    const { verdicts } = await judgeRun('replay', CLOSED_PORT_URL, [{ ...SUBJECT, actual: 'It is four.' }]);
    const [verdict] = verdicts;
    expect(verdict!.status).toBe('error');
    expect(verdict!.errorCode).toBe(JudgeErrorCode.CASSETTE_MISS);
    expect(verdict!.metrics.attempts).toBe(1);
    expect(verdict!.rationale).toContain(`no recorded model response for a request of "${TEST_NAME}"`);
    expect(verdict!.rationale).toContain('channel "judge fake-judge"');
    expect(verdict!.rationale).toMatch(/\+.*It is four\./);
    expect(verdict!.rationale).toContain('--update-cassettes');
  }, 30_000);

  it('outside replay the key rule stays: no key is credential_missing, nothing sent', async () => {
    const { verdicts } = await judgeRun('auto', CLOSED_PORT_URL, [SUBJECT]);
    expect(verdicts[0]!.errorCode).toBe(JudgeErrorCode.CREDENTIAL_MISSING);
  });

  it('a judge registered on the kit (kit.evaluate) goes through kit.cassettes too', async () => {
    const evaluateOnce = async (mode: CassetteMode, baseUrl: string) => {
      const book = openCassetteBook({
        testFile: join(folder, 'kit.test.ts'),
        testPath: 'kit.test.ts',
        settings: { mode, update: false },
      });
      const kit = new MCPTestKit({ cassettes: book.scope(TEST_NAME) });
      try {
        kit.registerEvaluator('answer-judge', judgeAt(baseUrl));
        const result = await kit.evaluate(SUBJECT, 'answer-judge');
        return { result, report: await book.finish({ fullRun: true }) };
      } finally {
        await kit.close();
      }
    };
    const fake = new FakeModelServer().enqueue({
      content: JSON.stringify({ score: 0.9, rationale: 'says 4, as expected', abstain: false }),
    });
    const { baseUrl } = await fake.start();
    process.env[KEY_ENV] = KEY;
    let recorded: Awaited<ReturnType<typeof evaluateOnce>>;
    try {
      recorded = await evaluateOnce('record', baseUrl);
    } finally {
      await fake.close();
    }
    delete process.env[KEY_ENV];
    const replayed = await evaluateOnce('replay', CLOSED_PORT_URL);
    expect(recorded.report).toMatchObject({ recorded: 1 });
    expect(replayed.report).toMatchObject({ replayed: 1, recorded: 0 });
    expect([replayed.result.status, replayed.result.score]).toEqual(['passed', 0.9]);
    expect(replayed.result.rationale).toBe(recorded.result.rationale);
  }, 30_000);
});
