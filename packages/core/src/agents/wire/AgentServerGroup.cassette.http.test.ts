// The servers' side of a cassette through the loopback reverse proxy (HTTP and in-process servers
// an agent reaches): recorded against the real example server, then replayed with the URL at a
// closed port (HTTP) or a factory that throws if it is ever asked for a server (in-process).
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { createExampleServer } from '@sf-m3/example-servers';
import type { CassetteBook } from '../../cassettes/CassetteBook';
import { ServerCassettes } from '../../cassettes/servers/ServerCassettes';
import { bookIn, cassetteFileIn, testFolder, wireToolCalls } from '../../cassettes/servers/serverCassettes.testkit';
import { ensureExampleServerBuilt, spawnExampleHttp } from '../../client/exampleTransports.testkit';
import { HTTPServer } from '../../servers/HTTPServer';
import { InProcessServer } from '../../servers/InProcessServer';
import type { ServerDefinition } from '../../servers/ServerDefinition';
import { connectAsAgent, setupGroup } from './wire.testkit';

let exampleHttp: { child: ChildProcess; url: string };
beforeAll(async () => {
  ensureExampleServerBuilt();
  exampleHttp = await spawnExampleHttp();
}, 120_000);
afterAll(async () => {
  exampleHttp.child.kill('SIGTERM');
  await new Promise((resolve) => exampleHttp.child.once('exit', resolve));
});

const TEST = 'example agent over http';
/** Nothing listens on port 9 (discard). */
const CLOSED_URL = 'http://127.0.0.1:9/mcp';
const neverStarted = () => {
  throw new Error('the in-process server was asked for during a replay');
};

const rows: Array<[string, () => ServerDefinition, () => ServerDefinition]> = [
  [
    'http',
    () => new HTTPServer({ name: 'example', url: exampleHttp.url }),
    () => new HTTPServer({ name: 'example', url: CLOSED_URL }),
  ],
  [
    'in_process',
    () => new InProcessServer({ name: 'example', factory: createExampleServer }),
    () => new InProcessServer({ name: 'example', factory: neverStarted }),
  ],
];

type Call = [string, Record<string, unknown>];
const CALLS: Call[] = [
  ['shipping_quote', { weight_kg: 2, zone: 'local' }],
  ['create_order', { customer_id: 'ada', item: 'tea', quantity: 1 }],
];

async function runAgent(book: CassetteBook, server: ServerDefinition, calls: Call[]) {
  const misses: Error[] = [];
  const scope = book.scope(TEST, { servers: true });
  const { group, finish } = setupGroup(
    [server],
    undefined,
    [],
    (redactor) => new ServerCassettes({ scope, trial: 1, redactor, onMiss: (e) => misses.push(e) }),
  );
  const outcomes: unknown[] = [];
  let client: Client | undefined;
  try {
    const [descriptor] = await group.start(new AbortController().signal);
    client = await connectAsAgent(descriptor!);
    await client.listTools();
    for (const [name, args] of calls) {
      outcomes.push(await client.callTool({ name, arguments: args }).catch((e: Error) => ({ rejected: e.message })));
    }
  } finally {
    await client?.close();
    await group.close();
  }
  return { trace: finish(), outcomes, misses };
}

describe.each(rows)('AgentServerGroup with the servers side on a cassette, %s', (_kind, live, unreachable) => {
  test('records through the reverse proxy, then replays without reaching the server: same wire, same results', async () => {
    const folder = testFolder();
    const recording = bookIn(folder, 'record');
    const recorded = await runAgent(recording, live(), CALLS);
    expect(await recording.finish({ fullRun: true })).toMatchObject({ recorded: 4, written: true });
    const tape = JSON.parse(readFileSync(cassetteFileIn(folder), 'utf8')).tests[TEST].channels['mcp example trial 1'];
    expect(tape.map((e: { request: { path: string } }) => e.request.path)).toEqual([
      'initialize',
      'tools/list',
      'tools/call',
      'tools/call',
    ]);

    const replaying = bookIn(folder, 'replay');
    const replayed = await runAgent(replaying, unreachable(), CALLS);
    expect(await replaying.finish({ fullRun: true })).toMatchObject({ replayed: 4, recorded: 0 });
    expect(replayed.misses).toEqual([]);
    expect(replayed.outcomes).toEqual(recorded.outcomes);
    expect(wireToolCalls(replayed.trace)).toEqual(wireToolCalls(recorded.trace));
    expect(replayed.trace.events.find((e) => e.kind === 'transport.connected')?.payload).toMatchObject({
      instrumented: 'cassette-replay',
    });
    expect(JSON.stringify(replayed.trace.toJSON())).not.toContain('upstream_unreachable');

    // A changed argument: the agent gets the miss as the call's error, the execution the miss.
    const again = bookIn(folder, 'replay');
    const changed = await runAgent(again, unreachable(), [['shipping_quote', { weight_kg: 3, zone: 'local' }]]);
    expect(changed.misses).toHaveLength(1);
    expect(changed.misses[0]).toMatchObject({ code: 'cassette_miss' });
    expect(changed.outcomes).toEqual([{ rejected: expect.stringContaining('no recorded MCP server answer') }]);
  }, 60_000);
});
