import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { CassetteMode } from '../../core/src/cassettes/CassetteMode';
import { openCassetteBook } from '../../core/src/cassettes/FileCassetteBook';
import { LLMJudge } from '../../core/src/judge/LLMJudge';
import { MCPTestKit } from '../../core/src/kit/MCPTestKit';
import { makePrivateTempDir } from '../../core/src/tempfiles/privateTempDir';
import { FakeModelServer } from '../../core/src/testing/FakeModelServer';
import { m3Matchers } from './index';

expect.extend(m3Matchers);

// toSatisfyJudge sends the judge's request through the test's cassettes (`kit.cassettes`, contract
// §24): recorded against a live FakeModelServer, replayed with the endpoint at a closed port.

let folder: string;

beforeEach(async () => {
  folder = await makePrivateTempDir('m3-matcher-cassette-');
});

afterEach(async () => {
  delete (globalThis as { m3Kit?: unknown }).m3Kit;
  await rm(folder, { recursive: true, force: true });
});

/** One run of the test: a book, a kit holding the test's scope, one `toSatisfyJudge`, the saved verdict. */
async function assertOnce(mode: CassetteMode, baseUrl: string) {
  const book = openCassetteBook({
    testFile: join(folder, 'judged.test.ts'),
    testPath: 'judged.test.ts',
    settings: { mode, update: false },
  });
  const kit = new MCPTestKit({ recordChecks: true, cassettes: book.scope('judged answer') });
  try {
    (globalThis as { m3Kit?: unknown }).m3Kit = kit;
    const judge = new LLMJudge({ model: 'judge-fixture', baseUrl, auth: 'none', responseMode: 'json_text' });
    await expect('The answer is 4.').toSatisfyJudge(judge, { input: 'What is 2+2?', expected: '4' });
    const [saved] = kit.evaluationResults().filter((r) => r.evaluator === 'm3.expect.toSatisfyJudge.judge');
    return { saved: saved!, report: await book.finish({ fullRun: true }) };
  } finally {
    await kit.close();
  }
}

test('toSatisfyJudge records the judge through kit.cassettes and replays the same verdict without the endpoint', async () => {
  const fake = new FakeModelServer().enqueue({
    content: JSON.stringify({ score: 0.95, rationale: 'says 4, as expected', abstain: false }),
  });
  const { baseUrl } = await fake.start();
  let recorded: Awaited<ReturnType<typeof assertOnce>>;
  try {
    recorded = await assertOnce('record', baseUrl);
  } finally {
    await fake.close();
  }
  expect(recorded.report).toMatchObject({ recorded: 1, written: true });
  const replayed = await assertOnce('replay', 'http://127.0.0.1:9/v1');
  expect(replayed.report).toMatchObject({ replayed: 1, recorded: 0 });
  expect([replayed.saved.status, replayed.saved.score, replayed.saved.rationale]).toEqual([
    recorded.saved.status,
    recorded.saved.score,
    recorded.saved.rationale,
  ]);
  expect(replayed.saved.status).toBe('passed');
});
