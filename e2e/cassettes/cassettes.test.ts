// End-to-end (contract §24): an agent suite with two trials on the openai harness and a real MCP
// server, recorded once through the real `m3` and Jest against a live fake model, then replayed under
// CI=true with the model endpoint at a closed port: same verdicts and tool calls, the summary says
// replayed, the cassette untouched. A changed prompt then fails with cassette_miss, its diff and the
// command that re-records; --update-cassettes records the new request and drops the old one.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ExecutionStore } from '@sf-m3/core';
import { FakeChatCompletionsServer, trailingToolResults } from '@sf-m3/core/testing';
import {
  copyFixture,
  ensureBuilt,
  printedRunId,
  removeFixture,
  runM3Async,
  withStore,
  type M3Run,
} from '../cli.testkit';

jest.setTimeout(300_000);

/** Nothing listens on port 9 (discard) on loopback: a connection attempt would fail the run. */
const CLOSED = 'http://127.0.0.1:9/v1';
const TEST_FILE = join('tests', 'agents.test.js');
const CASSETTE = join('tests', '__cassettes__', 'agents.test.js.cassette.json');

/** The fake provider: a tool call first, then an answer quoting the tool's result. */
function fakeModel(): FakeChatCompletionsServer {
  return new FakeChatCompletionsServer()
    .when({ afterToolResult: true }, (request) => ({ content: `quoted ${trailingToolResults(request)[0]?.text}` }))
    .when({}, { toolCalls: [{ name: 'example-mcp__shipping_quote', arguments: { weight_kg: 2, zone: 'local' } }] });
}

/** What a run decided, per test: the evaluations' verdicts and the tool calls on the wire. */
async function outcomes(folder: string, runId: string): Promise<Record<string, unknown>> {
  return withStore(folder, async (store: ExecutionStore) => {
    const attempts = await store.listAttempts({ runId });
    const evaluations = await store.listEvaluations({ runId });
    const byTest: Record<string, unknown> = {};
    for (const attempt of attempts) {
      const calls = [];
      for (const executionId of attempt.executionIds) {
        const view = await store.getTraceView(executionId);
        for (const call of view?.toolCalls ?? []) {
          calls.push(
            JSON.parse(
              JSON.stringify({
                server: call.server,
                status: call.status,
                tool: call.tool,
                arguments: call.arguments,
                result: call.result,
              }),
            ),
          );
        }
      }
      const verdicts = evaluations
        .filter((e) => e.executionId !== null && attempt.executionIds.includes(e.executionId))
        .map((e) => `${e.evaluator}=${e.status}`)
        .sort();
      byTest[attempt.fullName] = { outcome: attempt.outcome, verdicts, calls };
    }
    return byTest;
  });
}

async function cassetteUses(folder: string, runId: string): Promise<string[]> {
  return withStore(folder, async (store) =>
    (await store.listExecutions({ runId })).map((e) => String(e.labels.metadata.cassette)).sort(),
  );
}

const output = (run: M3Run) => `${run.stdout}\n${run.stderr}`;

describe('cassettes through m3 test (contract §24)', () => {
  let folder: string;
  let live: FakeChatCompletionsServer | null = null;

  beforeAll(() => {
    ensureBuilt();
    folder = copyFixture('cassettes-openai');
  });
  afterAll(async () => {
    await live?.close();
    removeFixture(folder);
  });

  test('record once, replay in CI with no endpoint, miss on a changed prompt, re-record with --update-cassettes', async () => {
    // (a) Recorded in the default mode outside CI (auto), against the live endpoint.
    live = fakeModel();
    const { baseUrl } = await live.start();
    const recorded = await runM3Async(['test'], folder, { FAKE_MODEL_URL: baseUrl, CI: 'false', M3_CASSETTES: '' });
    expect(recorded.status).toBe(0);
    expect(recorded.stdout).toContain('attempts    2 passed, 0 failed, 0 skipped, 0 todo');
    expect(recorded.stdout).toContain('cassettes  0 replayed, 2 recorded, 0 obsolete');
    expect(live.modelRequests.length).toBeGreaterThanOrEqual(4);
    const cassette = readFileSync(join(folder, CASSETTE), 'utf8');
    const tests = JSON.parse(cassette).tests as Record<string, { channels: Record<string, unknown[]> }>;
    expect(Object.keys(tests)).toEqual([
      'quotes quotes a parcel [server=example-mcp] [agent=openai:cassette-model] [trial 1/2]',
      'quotes quotes a parcel [server=example-mcp] [agent=openai:cassette-model] [trial 2/2]',
    ]);
    expect(Object.values(tests).map((entry) => Object.keys(entry.channels))).toEqual([
      ['openai cassette-model trial 1'],
      ['openai cassette-model trial 2'],
    ]);
    const recordedRun = printedRunId(recorded.stdout);
    expect(await cassetteUses(folder, recordedRun)).toEqual(['recorded', 'recorded']);

    // (b) The endpoint stopped, its URL a closed port, CI=true: replayed, same verdicts and calls.
    await live.close();
    live = null;
    const replayed = await runM3Async(['test'], folder, { FAKE_MODEL_URL: CLOSED, CI: 'true', M3_CASSETTES: '' });
    expect(replayed.status).toBe(0);
    expect(replayed.stdout).toContain('attempts    2 passed, 0 failed, 0 skipped, 0 todo');
    expect(replayed.stdout).toContain('cassettes  2 replayed, 0 recorded, 0 obsolete');
    const replayedRun = printedRunId(replayed.stdout);
    expect(await cassetteUses(folder, replayedRun)).toEqual(['replayed', 'replayed']);
    const before = await outcomes(folder, recordedRun);
    expect(Object.keys(before)).toHaveLength(2);
    expect(await outcomes(folder, replayedRun)).toEqual(before);
    expect(JSON.stringify(before)).toContain('"weight_kg":2');
    expect(readFileSync(join(folder, CASSETTE), 'utf8')).toBe(cassette);

    // (c) The prompt edited without re-recording: the replay misses, says how and how to re-record.
    const testFile = join(folder, TEST_FILE);
    writeFileSync(
      testFile,
      readFileSync(testFile, 'utf8').replace('Quote a 2 kg local parcel', 'Quote a 3 kg local parcel'),
    );
    const missed = await runM3Async(['test'], folder, { FAKE_MODEL_URL: CLOSED, CI: 'true', M3_CASSETTES: '' });
    expect(missed.status).toBe(1);
    expect(missed.stdout).toContain('attempts    0 passed, 2 failed, 0 skipped, 0 todo');
    const said = output(missed);
    expect(said).toContain('cassette_miss');
    expect(said).toContain('no recorded model response for a request of "quotes quotes a parcel');
    expect(said).toMatch(/- .*Quote a 2 kg local parcel/);
    expect(said).toMatch(/\+ .*Quote a 3 kg local parcel/);
    expect(said).toContain('npx m3 test tests/agents.test.js --update-cassettes');
    expect(readFileSync(join(folder, CASSETTE), 'utf8')).toBe(cassette);

    // (d) --update-cassettes with the endpoint up: the new request recorded, the old one dropped.
    live = fakeModel();
    const { baseUrl: again } = await live.start();
    const updated = await runM3Async(['test', '--update-cassettes'], folder, { FAKE_MODEL_URL: again, CI: 'false' });
    expect(updated.status).toBe(0);
    // Re-recorded exchanges replace the old ones (as Jest's -u updates a snapshot): nothing obsolete.
    expect(updated.stdout).toContain('cassettes  0 replayed, 2 recorded, 0 obsolete\n');
    const rewritten = readFileSync(join(folder, CASSETTE), 'utf8');
    expect(rewritten).toContain('Quote a 3 kg local parcel');
    expect(rewritten).not.toContain('Quote a 2 kg local parcel');
    await live.close();
    live = null;
    const green = await runM3Async(['test'], folder, { FAKE_MODEL_URL: CLOSED, CI: 'true', M3_CASSETTES: '' });
    expect(green.status).toBe(0);
    expect(green.stdout).toContain('cassettes  2 replayed, 0 recorded, 0 obsolete');
    expect(readFileSync(join(folder, CASSETTE), 'utf8')).toBe(rewritten);

    // (e) A renamed test leaves its old entries obsolete: listed like Jest's obsolete snapshots with the
    // command that removes them, then removed by --update-cassettes.
    writeFileSync(testFile, readFileSync(testFile, 'utf8').replace("'quotes a parcel'", "'quotes one parcel'"));
    live = fakeModel();
    const { baseUrl: third } = await live.start();
    const renamed = await runM3Async(['test'], folder, { FAKE_MODEL_URL: third, CI: 'false', M3_CASSETTES: '' });
    expect(renamed.status).toBe(0);
    expect(renamed.stdout).toContain(
      [
        'cassettes  0 replayed, 2 recorded, 4 obsolete',
        '  4 obsolete cassette entries in 1 file; to remove them, run `npx m3 test --update-cassettes`',
        '    ↳ tests/agents.test.js',
        '        • quotes quotes a parcel [server=example-mcp] [agent=openai:cassette-model] [trial 1/2]',
        '        • quotes quotes a parcel [server=example-mcp] [agent=openai:cassette-model] [trial 2/2]',
        '',
      ].join('\n'),
    );
    expect(readFileSync(join(folder, CASSETTE), 'utf8')).toContain('quotes quotes a parcel');
    const cleaned = await runM3Async(['test', '--update-cassettes'], folder, { FAKE_MODEL_URL: third });
    expect(cleaned.status).toBe(0);
    expect(cleaned.stdout).toContain(
      'cassettes  0 replayed, 2 recorded, 4 obsolete removed\n  4 obsolete cassette entries removed from 1 file\n',
    );
    const tidy = JSON.parse(readFileSync(join(folder, CASSETTE), 'utf8')) as { tests: Record<string, unknown> };
    expect(Object.keys(tidy.tests)).toEqual([
      'quotes quotes one parcel [server=example-mcp] [agent=openai:cassette-model] [trial 1/2]',
      'quotes quotes one parcel [server=example-mcp] [agent=openai:cassette-model] [trial 2/2]',
    ]);
    await live.close();
    live = null;
  });

  test("the e2e spawn helpers' default is M3_CASSETTES=off: agents reach their endpoint live, nothing is written", async () => {
    const plain = copyFixture('cassettes-openai');
    const model = fakeModel();
    try {
      const { baseUrl } = await model.start();
      const run = await runM3Async(['test'], plain, { FAKE_MODEL_URL: baseUrl, CI: 'false' });
      expect(run.status).toBe(0);
      expect(run.stdout).toContain('attempts    2 passed, 0 failed, 0 skipped, 0 todo');
      expect(run.stdout).not.toContain('cassettes');
      expect(model.modelRequests.length).toBeGreaterThanOrEqual(4);
      expect(existsSync(join(plain, 'tests', '__cassettes__'))).toBe(false);
    } finally {
      await model.close();
      removeFixture(plain);
    }
  });

  test('the repository fixture itself never gains a cassette', () => {
    expect(existsSync(join(__dirname, '..', 'fixtures', 'cassettes-openai', 'tests', '__cassettes__'))).toBe(false);
  });
});
