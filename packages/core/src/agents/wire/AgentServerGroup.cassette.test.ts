// The servers' side of a cassette through the capture proxy (what the native CLIs reach): a real
// MCP client spawns the descriptor's command as an agent would. Recorded against the real example
// server; replayed with the server's command pointing at a path that does not exist and its secret
// variable unset, so neither the server nor its secret is needed.
import { readFileSync } from 'node:fs';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CassetteBook } from '../../cassettes/CassetteBook';
import { ServerCassettes } from '../../cassettes/servers/ServerCassettes';
import {
  bookIn,
  cassetteFileIn,
  MISSING_COMMAND,
  testFolder,
  wireToolCalls,
} from '../../cassettes/servers/serverCassettes.testkit';
import { secretFromEnv } from '../../redaction/SecretRef';
import { StdioServer } from '../../servers/StdioServer';
import type { TraceResult } from '../../trace/TraceResult';
import { connectAsAgent, exampleServerBin, finishedCapture, setupGroup } from './wire.testkit';

const SECRET = 'casmcp-stdio-secret-5b1e77d0';
const TEST = 'example agent quotes';

const example = (command: string, secretVariable: string) =>
  new StdioServer({
    name: 'example',
    command,
    args: [exampleServerBin],
    env: { EXAMPLE_API_TOKEN: secretFromEnv(secretVariable) },
  });

type Call = [string, Record<string, unknown>];
const CALLS: Call[] = [
  ['shipping_quote', { weight_kg: 2, zone: 'local' }],
  ['normalize_customer', { name: `  ${SECRET} ` }],
];

/** One agent execution against `server` through the group, with the servers' cassette of `book`. */
async function runAgent(book: CassetteBook, server: StdioServer, calls: Call[]) {
  let cassettes: ServerCassettes | undefined;
  const misses: Error[] = [];
  const scope = book.scope(TEST, { servers: true });
  const { group, finish } = setupGroup([server], undefined, [], (redactor) => {
    cassettes = new ServerCassettes({ scope, trial: 1, redactor, onMiss: (e) => misses.push(e) });
    return cassettes;
  });
  const outcomes: unknown[] = [];
  let tools: string[];
  let client: Client | undefined;
  let replayFlag: boolean | undefined;
  try {
    const [descriptor] = await group.start(new AbortController().signal);
    client = await connectAsAgent(descriptor!);
    tools = (await client.listTools()).tools.map((t) => t.name);
    for (const [name, args] of calls) {
      outcomes.push(await client.callTool({ name, arguments: args }).catch((e: Error) => ({ rejected: e.message })));
    }
    await client.close();
    const [capture] = group.captures();
    replayFlag = (await finishedCapture(capture!.capturePath)).start?.replay;
  } finally {
    await client?.close();
    await group.close();
  }
  const trace: TraceResult = finish();
  return { trace, outcomes, tools, cassettes: cassettes!, misses, replayFlag };
}

async function recordIn(folder: string) {
  process.env.SF_M3_CASMCP_TOKEN = SECRET;
  try {
    const book = bookIn(folder, 'record');
    const run = await runAgent(book, example(process.execPath, 'SF_M3_CASMCP_TOKEN'), CALLS);
    return { run, report: await book.finish({ fullRun: true }) };
  } finally {
    delete process.env.SF_M3_CASMCP_TOKEN;
  }
}

describe('AgentServerGroup with the servers side on a cassette', () => {
  test('records through the capture proxy, then replays without starting the server: same wire, same results, no secret on file', async () => {
    const folder = testFolder();
    const { run: live, report } = await recordIn(folder);
    expect(live.replayFlag).toBeUndefined();
    expect(report).toMatchObject({ recorded: 4, written: true });
    // The server echoed the secret: the agent saw it; the cassette never does.
    expect(JSON.stringify(live.outcomes)).toContain(SECRET);
    const text = readFileSync(cassetteFileIn(folder), 'utf8');
    expect(text).not.toContain(SECRET);
    expect(text).toContain('[REDACTED]');
    const tape = JSON.parse(text).tests[TEST].channels['mcp example trial 1'];
    expect(tape.map((e: { request: { path: string } }) => e.request.path)).toEqual([
      'initialize',
      'tools/list',
      'tools/call',
      'tools/call',
    ]);

    // Replay: the command does not exist and the secret's variable is unset.
    const book = bookIn(folder, 'replay');
    const replayed = await runAgent(book, example(MISSING_COMMAND, 'SF_M3_CASMCP_TOKEN'), CALLS.slice(0, 1));
    expect(await book.finish({ fullRun: false })).toMatchObject({ replayed: 3, recorded: 0, written: false });
    expect(replayed.replayFlag).toBe(true);
    expect(replayed.misses).toEqual([]);
    expect(replayed.cassettes.use()).toBe('replayed');
    expect(replayed.tools).toEqual(live.tools);
    expect(replayed.outcomes).toEqual(live.outcomes.slice(0, 1));
    expect(wireToolCalls(replayed.trace)).toEqual(wireToolCalls(live.trace).slice(0, 1));
    const kinds = replayed.trace.events.map((e) => e.kind);
    expect(kinds).not.toContain('process.started');
    expect(kinds).not.toContain('process.exited');
    expect(replayed.trace.events.find((e) => e.kind === 'transport.connected')?.payload).toMatchObject({
      instrumented: 'cassette-replay',
    });
  });

  test('a changed tool argument in replay reaches the agent as a JSON-RPC error and is the execution’s cassette_miss', async () => {
    const folder = testFolder();
    await recordIn(folder);
    const book = bookIn(folder, 'replay');
    const changed: Call[] = [['shipping_quote', { weight_kg: 3, zone: 'local' }]];
    const run = await runAgent(book, example(MISSING_COMMAND, 'SF_M3_CASMCP_TOKEN'), changed);
    expect(run.misses).toHaveLength(1);
    expect(run.misses[0]).toMatchObject({ code: 'cassette_miss' });
    expect(run.misses[0]!.message).toContain('"mcp example trial 1"');
    expect(run.misses[0]!.message).toMatch(/- +"weight_kg": 2/);
    expect(run.misses[0]!.message).toMatch(/\+ +"weight_kg": 3/);
    expect(run.outcomes).toEqual([{ rejected: expect.stringContaining('no recorded MCP server answer') }]);
    expect(wireToolCalls(run.trace)[0]).toMatchObject({ tool: 'shipping_quote', status: 'protocol_error' });
  });
});
