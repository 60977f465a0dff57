// The servers' side of an agent test on cassette (contract §24), end to end: the `openai` harness
// through a real book with `servers: true`, the model played live by a FakeModelServer and the
// MCP server by the repo's example server, recorded together; then replayed from a new book with
// the endpoint at a closed port, no key, the server's command pointing at a path that does not
// exist and its secret's variable unset.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { CassetteMode } from '../CassetteMode';
import type { ExecutionResult } from '../../execution/ExecutionResult';
import { MCPTestKit } from '../../kit/MCPTestKit';
import { secretFromEnv } from '../../redaction/SecretRef';
import { StdioServer } from '../../servers/StdioServer';
import { FakeModelServer } from '../../testing/FakeModelServer';
import { bookIn, cassetteFileIn, exampleServerBin, MISSING_COMMAND, testFolder } from './serverCassettes.testkit';

const TEST_NAME = 'shipping agent quotes a parcel';
const SECRET_ENV = 'SF_M3_CASMCP_AGENT_TOKEN';
const SECRET = 'casmcp-agent-secret-3c9d51aa';
const KEY_ENV = 'SF_M3_CASMCP_OPENAI_KEY';
const KEY = 'sk-casmcp-test-key-5h2k8q1w';
/** Nothing listens on port 9 (discard): any connection attempt fails at once. */
const CLOSED_PORT_URL = 'http://127.0.0.1:9/v1';
const PROMPT = 'Quote a 2 kg parcel, local zone';

const shipping = (command: string) =>
  new StdioServer({
    name: 'shipping',
    command,
    args: [exampleServerBin],
    env: { EXAMPLE_API_TOKEN: secretFromEnv(SECRET_ENV) },
  });

let folder: string;

beforeAll(() => {
  if (!existsSync(exampleServerBin)) {
    execFileSync('npx', ['tsc', '-b', 'examples/servers'], { cwd: join(__dirname, '..', '..', '..', '..', '..') });
  }
}, 120_000);

beforeEach(() => {
  folder = testFolder();
});

afterEach(async () => {
  delete process.env[KEY_ENV];
  delete process.env[SECRET_ENV];
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

/** Runs two trials of the test with the kit holding the book's scope (`servers: true`). */
async function runTrials(mode: CassetteMode, baseUrl: string, command: string) {
  const book = bookIn(folder, mode);
  const kit = new MCPTestKit({ cassettes: book.scope(TEST_NAME, { servers: true }) });
  try {
    const agents = kit.agents([{ harness: 'openai', model: 'fake-model', baseUrl, apiKeyEnv: KEY_ENV }], {
      trials: 2,
    });
    const results: ExecutionResult[] = [];
    for (const agent of agents) results.push(await agent.run(PROMPT, { servers: [shipping(command)] }));
    return { results, report: await book.finish({ fullRun: true }) };
  } finally {
    await kit.close();
  }
}

/** Records the two trials live: the model endpoint, the key and the server's secret all present. */
async function recordTrials() {
  const fake = fakeModel();
  const { baseUrl } = await fake.start();
  process.env[KEY_ENV] = KEY;
  process.env[SECRET_ENV] = SECRET;
  try {
    return await runTrials('record', baseUrl, process.execPath);
  } finally {
    await fake.close();
    delete process.env[KEY_ENV];
    delete process.env[SECRET_ENV];
  }
}

/** What must be equal between the recorded run and its replay: the wire, the messages, the answer. */
function observable(result: ExecutionResult) {
  const view = result.traceView;
  return {
    outcome: result.snapshot.outcome,
    error: result.error ?? null,
    text: result.turns.map((t) => t.response?.text ?? null),
    messages: view.messages.map((m) => ({ role: m.role, content: m.content })),
    toolCalls: view.toolCalls.map((c) => ({
      server: c.server,
      tool: c.tool.value,
      arguments: c.arguments.value,
      result: c.result.value,
      status: c.status,
      wire: c.wire.state,
    })),
  };
}

const processStarts = (result: ExecutionResult) =>
  result.trace.events.filter((e) => e.kind === 'process.started').length;

describe('an openai agent test with its servers side on cassette', () => {
  it('records model and server together, then replays with neither: same tool calls on the wire, messages and outcomes', async () => {
    const recorded = await recordTrials();
    expect(recorded.results.map((r) => r.snapshot.outcome)).toEqual(['completed', 'completed']);
    expect(recorded.results.map(processStarts)).toEqual([1, 1]);
    expect(recorded.results[0]!.traceView.toolCalls).toHaveLength(1);
    // Per trial: 2 model exchanges; on the server initialize, tools/list (twice: the harness lists
    // the tools again before its first call) and one tools/call.
    expect(recorded.report).toMatchObject({ recorded: 12, replayed: 0, written: true });

    const bytes = readFileSync(cassetteFileIn(folder), 'utf8');
    const file = JSON.parse(bytes) as { tests: Record<string, { channels: Record<string, unknown[]> }> };
    const paths = (channel: string) =>
      (file.tests[TEST_NAME]!.channels[channel] as Array<{ request: { path: string } }>).map((e) => e.request.path);
    expect(paths('mcp shipping trial 2')).toEqual(['initialize', 'tools/list', 'tools/list', 'tools/call']);
    expect(Object.keys(file.tests[TEST_NAME]!.channels)).toEqual([
      'mcp shipping trial 1',
      'mcp shipping trial 2',
      'openai fake-model trial 1',
      'openai fake-model trial 2',
    ]);
    expect(bytes).not.toContain(SECRET);
    expect(bytes).not.toContain(KEY);
    expect(bytes).not.toContain(SECRET_ENV);

    const replayed = await runTrials('replay', CLOSED_PORT_URL, MISSING_COMMAND);
    expect(replayed.results.map((r) => r.error ?? null)).toEqual([null, null]);
    expect(replayed.report).toMatchObject({ recorded: 0, replayed: 12, obsolete: 0, written: false });
    expect(replayed.results.map(processStarts)).toEqual([0, 0]);
    expect(replayed.results.map(observable)).toEqual(recorded.results.map(observable));
    expect(replayed.results.map((r) => r.snapshot.metadata)).toEqual([
      { cassette: 'replayed' },
      { cassette: 'replayed' },
    ]);
    expect(readFileSync(cassetteFileIn(folder), 'utf8')).toBe(bytes);
  }, 90_000);

  it('a tool argument that changed since the recording fails the replayed execution with cassette_miss', async () => {
    await recordTrials();
    // The model now asks for 3 kg: the server's side was recorded for 2 kg.
    const path = cassetteFileIn(folder);
    const text = readFileSync(path, 'utf8');
    const edited = text.replace(/\\"weight_kg\\":2/g, '\\"weight_kg\\":3');
    expect(edited).not.toBe(text);
    writeFileSync(path, edited);

    const { results } = await runTrials('replay', CLOSED_PORT_URL, MISSING_COMMAND);
    for (const result of results) {
      expect(result.snapshot.outcome).toBe('failed');
      expect(result.error?.code).toBe('cassette_miss');
      expect(processStarts(result)).toBe(0);
    }
    // The call reached the (replayed) server's side and was answered with the miss, naming the server.
    const [call] = results[0]!.traceView.toolCalls;
    expect(call).toMatchObject({ tool: { value: 'shipping_quote' }, status: 'protocol_error' });
    const answer = JSON.stringify(call!.error.value);
    expect(answer).toContain('no recorded MCP server answer');
    expect(answer).toContain('mcp shipping trial 1');
    expect(answer).toContain('weight_kg');
  }, 90_000);
});
