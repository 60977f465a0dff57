import { readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { createExampleServer } from '@sf-m3/example-servers';
import type { CassetteMode } from '../cassettes/CassetteMode';
import { openCassetteBook } from '../cassettes/FileCassetteBook';
import type { ExecutionResult } from '../execution/ExecutionResult';
import { MCPTestKit } from '../kit/MCPTestKit';
import { InProcessServer } from '../servers/InProcessServer';
import { makePrivateTempDir } from '../tempfiles/privateTempDir';
import { FakeModelServer } from '../testing/FakeModelServer';

// The `openai` harness recorded against a live FakeModelServer through the real cassette book, then
// replayed from a new book with the endpoint at a closed port (contract §24).

// The example server in the test process: the suite is about the model channel's record and replay,
// not the server's transport (a stdio server would be a process per run, eight a file).
const shipping = new InProcessServer({ name: 'shipping', factory: createExampleServer });
const TEST_NAME = 'shipping agent quotes a parcel';
const KEY_ENV = 'M3_CASSETTE_TEST_OPENAI_KEY';
const KEY = 'sk-cassette-test-key-8f2k4m9q';
/** Nothing listens on port 9 (discard): any connection attempt fails at once. */
const CLOSED_PORT_URL = 'http://127.0.0.1:9/v1';
const PROMPT = 'Quote a 2 kg parcel, local zone';

let folder: string;

beforeEach(async () => {
  folder = await makePrivateTempDir('m3-openai-cassette-');
  delete process.env[KEY_ENV];
});

afterEach(async () => {
  delete process.env[KEY_ENV];
  await rm(folder, { recursive: true, force: true });
});

/** A model that asks for one `shipping_quote`, then answers with the tool's text. */
function fakeModel(): FakeModelServer {
  return new FakeModelServer()
    .when(
      { lastUserText: /Quote/, afterToolResult: false },
      { toolCalls: [{ name: 'shipping__shipping_quote', arguments: { weight_kg: 2, zone: 'local' } }] },
    )
    .when({ afterToolResult: 'shipping__shipping_quote' }, (request) => ({
      content: `Quote: ${request.messages.at(-1)?.toolResults[0]?.text ?? 'none'}`,
    }));
}

/** One book per "run" of the test file `agents.test.ts` in the temp folder. */
function book(mode: CassetteMode) {
  return openCassetteBook({
    testFile: join(folder, 'agents.test.ts'),
    testPath: 'agents.test.ts',
    settings: { mode, update: false },
  });
}

/** Runs the test's two trials with the kit holding `scope`; returns their results. */
async function runTrials(mode: CassetteMode, baseUrl: string, prompt = PROMPT) {
  const cassettes = book(mode);
  const kit = new MCPTestKit({ cassettes: cassettes.scope(TEST_NAME) });
  try {
    const agents = kit.agents([{ harness: 'openai', model: 'fake-model', baseUrl, apiKeyEnv: KEY_ENV }], {
      trials: 2,
    });
    const results: ExecutionResult[] = [];
    for (const agent of agents) results.push(await agent.run(prompt, { servers: [shipping] }));
    const stored = await Promise.all(results.map((r) => kit.store.getExecution(r.executionId)));
    return { results, stored, report: await cassettes.finish({ fullRun: true }) };
  } finally {
    await kit.close();
  }
}

/** What must be equal between the recorded run and its replay: the wire, the messages, the answer. */
function observable(result: ExecutionResult) {
  const view = result.traceView;
  return {
    outcome: result.snapshot.outcome,
    text: result.turns.map((t) => t.response?.text ?? null),
    messages: view.messages.map((m) => ({ role: m.role, content: m.content })),
    toolCalls: view.toolCalls.map((c) => ({
      server: c.server,
      tool: c.tool.value,
      arguments: c.arguments,
      status: c.status,
      wire: c.wire.state,
      providerCallId: c.providerCallId,
      correlation: c.correlation,
    })),
  };
}

describe('the openai harness on cassette', () => {
  it('records two trials live, then replays them with no endpoint and no key: same wire, messages and answers', async () => {
    const fake = fakeModel();
    const { baseUrl } = await fake.start();
    process.env[KEY_ENV] = KEY;
    let recorded: Awaited<ReturnType<typeof runTrials>>;
    try {
      recorded = await runTrials('record', baseUrl);
    } finally {
      await fake.close();
    }
    expect(fake.modelRequests).toHaveLength(4);
    expect(recorded.results.map((r) => r.snapshot.outcome)).toEqual(['completed', 'completed']);
    expect(recorded.results.map((r) => r.snapshot.metadata)).toEqual([
      { cassette: 'recorded' },
      { cassette: 'recorded' },
    ]);
    expect(recorded.stored.map((r) => (r.snapshot as { metadata?: unknown }).metadata)).toEqual([
      { cassette: 'recorded' },
      { cassette: 'recorded' },
    ]);
    expect(recorded.report).toMatchObject({ recorded: 4, replayed: 0, written: true });
    expect(recorded.results[0]!.traceView.toolCalls).toHaveLength(1);

    const bytes = readFileSync(recorded.report.file, 'utf8');
    const file = JSON.parse(bytes) as { tests: Record<string, { channels: Record<string, unknown[]> }> };
    expect(Object.keys(file.tests[TEST_NAME]!.channels).sort()).toEqual([
      'openai fake-model trial 1',
      'openai fake-model trial 2',
    ]);
    expect(bytes).not.toContain(KEY);
    expect(bytes.toLowerCase()).not.toContain('bearer');

    // Replay: the endpoint is a closed port and the key is unset (the placeholder stands in).
    delete process.env[KEY_ENV];
    const replayed = await runTrials('replay', CLOSED_PORT_URL);
    expect(replayed.results.map((r) => r.error ?? null)).toEqual([null, null]);
    expect(replayed.results.map((r) => r.snapshot.metadata)).toEqual([
      { cassette: 'replayed' },
      { cassette: 'replayed' },
    ]);
    expect(replayed.stored.map((r) => (r.snapshot as { metadata?: unknown }).metadata)).toEqual([
      { cassette: 'replayed' },
      { cassette: 'replayed' },
    ]);
    expect(replayed.report).toMatchObject({ recorded: 0, replayed: 4, obsolete: 0, written: false });
    expect(replayed.results.map(observable)).toEqual(recorded.results.map(observable));
    expect(readFileSync(recorded.report.file, 'utf8')).toBe(bytes);
  }, 60_000);

  it('fails a replayed execution whose prompt changed with cassette_miss: the diff and the command to re-record', async () => {
    const fake = fakeModel();
    const { baseUrl } = await fake.start();
    process.env[KEY_ENV] = KEY;
    try {
      await runTrials('record', baseUrl);
    } finally {
      await fake.close();
    }
    delete process.env[KEY_ENV];
    const { results, stored } = await runTrials('replay', CLOSED_PORT_URL, 'Quote a 3 kg parcel, local zone');
    for (const [index, result] of results.entries()) {
      expect(result.snapshot.outcome).toBe('failed');
      expect(result.error?.code).toBe('cassette_miss');
      expect(result.turns[0]!.error?.code).toBe('cassette_miss');
      expect(stored[index]!.snapshot).toMatchObject({ outcome: 'failed', error: { code: 'cassette_miss' } });
    }
    const message = results[0]!.error!.message;
    expect(message).toContain(`no recorded model response for a request of "${TEST_NAME}"`);
    expect(message).toContain('channel "openai fake-model trial 1"');
    expect(message).toMatch(/-.*Quote a 2 kg parcel/);
    expect(message).toMatch(/\+.*Quote a 3 kg parcel/);
    expect(message).toContain('--update-cassettes');
    // Nothing was answered: no tool call reached the server.
    expect(results[0]!.traceView.toolCalls).toEqual([]);
  }, 60_000);
});
