// kit.run for each DirectSpec kind against the compiled example server over stdio: every run spawns
// its own child, returns a finished ExecutionResult saved in the store, and leaves no process behind.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { exampleServerBin, TESTING_GUIDE_TEXT } from '@sf-m3/example-servers';
import { pidAlive, STDIO_FIXTURE, waitForExit } from '@sf-m3/test-utils/client';
import type { ExecutionResult } from '../execution/ExecutionResult';
import { StdioServer } from '../servers/StdioServer';
import { CallTool, GetPrompt, ListTools, Ping, ReadResource, type DirectSpec } from './DirectSpec';
import { kitOf } from '../ownership/kitLink';
import { MCPTestKit } from './MCPTestKit';

const example = new StdioServer({ name: 'example', command: process.execPath, args: [exampleServerBin] });

beforeAll(() => {
  if (!existsSync(exampleServerBin)) {
    execFileSync('npx', ['tsc', '-b', 'examples/servers'], { cwd: join(__dirname, '..', '..', '..', '..') });
  }
}, 120_000);

let kit: MCPTestKit;
beforeEach(() => {
  kit = new MCPTestKit({ suiteName: 'kit-run', caseId: 'stdio-specs' });
});
afterEach(async () => {
  await kit.close();
});

/** The pid of the child a finished stdio execution started. */
function childPid(result: ExecutionResult): number {
  const started = result.trace.events.find((e) => e.kind === 'process.started');
  return started!.payload.pid as number;
}

const specs: Array<[string, () => DirectSpec, (direct: unknown) => void]> = [
  [
    'CallTool',
    () => new CallTool({ server: example, tool: 'shipping_quote', arguments: { weight_kg: 2, zone: 'local' } }),
    (direct) => expect(direct).toMatchObject({ isError: false, structuredContent: { amount: 9, currency: 'USD' } }),
  ],
  [
    'ListTools',
    () => new ListTools({ server: example }),
    (direct) =>
      expect((direct as { tools: Array<{ name: string }> }).tools.map((t) => t.name)).toEqual(
        expect.arrayContaining(['shipping_quote', 'catalog_marker']),
      ),
  ],
  [
    'ReadResource',
    () => new ReadResource({ server: example, uri: 'memory://testing-guide' }),
    (direct) => expect((direct as { text: string }).text).toBe(TESTING_GUIDE_TEXT),
  ],
  [
    'GetPrompt',
    () => new GetPrompt({ server: example, name: 'review_order', arguments: { order_id: 'order-9' } }),
    (direct) =>
      expect((direct as { messages: Array<{ content: unknown }> }).messages[0]!.content).toEqual({
        type: 'text',
        text: 'Review order order-9 for correctness.',
      }),
  ],
  ['Ping', () => new Ping({ server: example }), (direct) => expect(direct).toEqual({})],
];

describe('kit.run over stdio', () => {
  test.each(specs)('%s completes, is saved, and its child is gone', async (_kind, spec, check) => {
    const result = await kit.run(spec());
    expect(result.snapshot).toMatchObject({ lifecycle: 'finished', outcome: 'completed', caseId: 'stdio-specs' });
    check(result.directResult);
    expect(kitOf(result)).toBe(kit);
    expect(result.traceView.runtime.kind).toBe('direct');
    expect(result.trace.finalized).toBe(true);
    expect(await waitForExit(childPid(result))).toBe(true);
    const record = await kit.store.getExecution(result.executionId);
    expect(record.outcome).toBe('completed');
    expect(record.spec).toMatchObject({ kind: 'direct', operation: spec().operation });
    expect((await kit.getTraceView(result.executionId)).toJSON()).toEqual(result.traceView.toJSON());
  });

  test('a spec whose server cannot start resolves with a failed result naming the startup error', async () => {
    const result = await kit.run(
      new Ping({ server: new StdioServer({ name: 'ghost', command: 'm3-no-such-cmd-77' }) }),
    );
    expect(result.snapshot.outcome).toBe('failed');
    expect(result.error).toMatchObject({ code: 'transport_startup_error' });
    expect(result.error?.message).toMatch(/^stdio MCP server startup failed for ghost/);
    expect(result.error?.message).not.toContain('m3-no-such-cmd-77');
  });

  test('kit.close while a submitted run is in flight cancels it and reaps the child', async () => {
    const fixture = new StdioServer({ name: 'fixture', command: process.execPath, args: [STDIO_FIXTURE] });
    const handle = kit.submit(new CallTool({ server: fixture, tool: 'slow', arguments: { ms: 20_000 } }));
    let pid: number | undefined;
    for await (const event of handle.events()) {
      if (event.kind === 'process.started') pid = event.payload.pid as number;
      if (event.kind === 'tool.call_requested') break;
    }
    expect(pidAlive(pid!)).toBe(true);
    await kit.close();
    const result = await handle.result({ timeoutMs: 5_000 });
    expect(result.snapshot.outcome).toBe('cancelled');
    expect(result.traceView.toolCalls[0]!.toolStatus).toBe('cancelled');
    expect(pidAlive(pid!)).toBe(false);
  });
});
