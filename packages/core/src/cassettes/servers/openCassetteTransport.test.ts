// The kit's own MCP connection (what the `openai` harness uses) with the servers' side on a real
// cassette book: recorded against the real math server, then replayed with the server's command
// pointing at a path that does not exist.
import { readFileSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CassetteScope } from '../CassetteScope';
import type { CassetteMode } from '../CassetteMode';
import { Redactor } from '../../redaction/Redactor';
import { StdioServer } from '../../servers/StdioServer';
import { TraceRecorder } from '../../trace/TraceRecorder';
import type { TraceResult } from '../../trace/TraceResult';
import { ObservedTransport } from '../../transport/ObservedTransport';
import { openCassetteTransport } from './openCassetteTransport';
import { ServerCassettes } from './ServerCassettes';
import {
  bookIn,
  cassetteFileIn,
  mathServerBin,
  MISSING_COMMAND,
  testFolder,
  wireMethods,
  wireToolCalls,
} from './serverCassettes.testkit';

const TEST = 'math agent adds';
const CONNECTION = 'conn-0123456789abcdef0123456789abcdef';

/** One execution: connect to `math` (its command given), list tools, make `calls`, close. */
async function runExecution(
  scope: CassetteScope,
  command: string,
  calls: Array<[string, Record<string, unknown>]>,
): Promise<{ trace: TraceResult; outcomes: unknown[]; tools: string[]; cassettes: ServerCassettes }> {
  const redactor = new Redactor();
  const recorder = new TraceRecorder({ executionId: 'exec-0123456789abcdef0123456789abcdef', redactor });
  recorder.record('execution.created', { payload: { runtime: 'openai', servers: [] } });
  const cassettes = new ServerCassettes({ scope, trial: 1, redactor });
  const server = new StdioServer({ name: 'math', command, args: [mathServerBin] });
  const opened = await openCassetteTransport(
    server,
    { redactor, recorder, connectionId: CONNECTION },
    cassettes.forServer('math'),
  );
  const client = new Client({ name: 'agent', version: '1.0.0' });
  const outcomes: unknown[] = [];
  let tools: string[];
  try {
    await client.connect(
      new ObservedTransport(opened.transport, { recorder, server: 'math', connectionId: CONNECTION }),
    );
    tools = (await client.listTools()).tools.map((t) => t.name);
    for (const [name, args] of calls) {
      outcomes.push(
        await client.callTool({ name, arguments: args }).catch((error: Error) => ({ rejected: error.message })),
      );
    }
  } finally {
    await client.close();
    await opened.reap();
  }
  return { trace: recorder.finish('completed'), outcomes, tools, cassettes };
}

const CALLS: Array<[string, Record<string, unknown>]> = [
  ['add_tool', { a: 2, b: 3 }],
  ['divide_tool', { a: 1, b: 0 }],
  ['add_tool', { a: 2, b: 3 }],
];

async function recordIn(folder: string, mode: CassetteMode = 'record') {
  const book = bookIn(folder, mode);
  const run = await runExecution(book.scope(TEST, { servers: true }), process.execPath, CALLS);
  const report = await book.finish({ fullRun: true });
  return { run, report };
}

describe('the servers side of a cassette, on the kit’s own MCP connection', () => {
  test('records every exchange without ids, then replays it without starting the server: same wire, same results', async () => {
    const folder = testFolder();
    const { run: live, report } = await recordIn(folder);
    expect(report).toMatchObject({ recorded: 5, replayed: 0, written: true });
    expect(live.cassettes.use()).toBe('recorded');
    expect(wireMethods(live.trace)).toContain('math tools/call');

    const file = JSON.parse(readFileSync(cassetteFileIn(folder), 'utf8'));
    const tape = file.tests[TEST].channels['mcp math trial 1'];
    expect(tape.map((e: { request: { path: string } }) => e.request.path)).toEqual([
      'initialize',
      'tools/list',
      'tools/call',
      'tools/call',
      'tools/call',
    ]);
    expect(tape[2].request).toEqual({
      method: 'JSONRPC',
      path: 'tools/call',
      headers: {},
      body: { arguments: { a: 2, b: 3 }, name: 'add_tool' },
    });
    expect(tape[2].response.body.result.structuredContent).toEqual({ result: 5 });
    expect(JSON.stringify(tape)).not.toMatch(/"id":/);

    const book = bookIn(folder, 'replay');
    const replayed = await runExecution(book.scope(TEST, { servers: true }), MISSING_COMMAND, CALLS);
    expect(await book.finish({ fullRun: true })).toMatchObject({ replayed: 5, recorded: 0, written: false });
    expect(replayed.cassettes.miss()).toBeNull();
    expect(replayed.cassettes.use()).toBe('replayed');
    expect(replayed.tools).toEqual(live.tools);
    expect(replayed.outcomes).toEqual(live.outcomes);
    expect(wireToolCalls(replayed.trace)).toEqual(wireToolCalls(live.trace));
    expect(wireMethods(replayed.trace)).toEqual(wireMethods(live.trace));
    // No process was started: the trace says the connection was a replay.
    const kinds = replayed.trace.events.map((e) => e.kind);
    expect(kinds).not.toContain('process.started');
    expect(replayed.trace.events.find((e) => e.kind === 'transport.connected')?.payload).toMatchObject({
      instrumented: 'cassette-replay',
    });
  });

  test('a changed tool argument in replay is a cassette_miss naming the server, answered as a JSON-RPC error', async () => {
    const folder = testFolder();
    await recordIn(folder);
    const book = bookIn(folder, 'replay');
    const changed: Array<[string, Record<string, unknown>]> = [['add_tool', { a: 2, b: 4 }]];
    const run = await runExecution(book.scope(TEST, { servers: true }), MISSING_COMMAND, changed);
    const miss = run.cassettes.miss();
    expect(miss).toMatchObject({ code: 'cassette_miss' });
    expect(miss!.message).toContain('"mcp math trial 1"');
    expect(miss!.message).toContain('tools/call add_tool');
    expect(miss!.message).toMatch(/- +"b": 3/);
    expect(miss!.message).toMatch(/\+ +"b": 4/);
    expect(miss!.message).toContain('npx m3 test agent.test.ts --update-cassettes');
    // The agent saw the miss as the call's JSON-RPC error.
    expect(run.outcomes).toEqual([{ rejected: expect.stringContaining('no recorded MCP server answer') }]);
    expect(wireToolCalls(run.trace)[0]).toMatchObject({ tool: 'add_tool', status: 'protocol_error' });
  });

  test('auto replays a recorded channel without the server and records a channel with nothing on it', async () => {
    const folder = testFolder();
    const first = await recordIn(folder, 'auto');
    expect(first.report).toMatchObject({ recorded: 5, written: true });
    const second = await recordIn(folder, 'auto');
    expect(second.report).toMatchObject({ replayed: 5, recorded: 0, written: false });
    expect(second.run.trace.events.map((e) => e.kind)).not.toContain('process.started');
  });
});
