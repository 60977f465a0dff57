import { KitClosed, M3Error, OperationCancelled, TransportError } from '../errors';
import { MCPTestKit } from '../kit/MCPTestKit';
import { secretFromEnv } from '../redaction/SecretRef';
import { StdioServer } from '../servers/StdioServer';
import { pidAlive, SERVER_EVERYTHING, STDIO_FIXTURE, waitForExit } from '@sf-m3/test-utils/client';

const fixture = (env: Record<string, ReturnType<typeof secretFromEnv> | string> = {}): StdioServer =>
  new StdioServer({ name: 'fixture', command: process.execPath, args: [STDIO_FIXTURE], env });

let kit: MCPTestKit;
beforeEach(() => {
  kit = new MCPTestKit();
});
afterEach(async () => {
  await kit.close();
});

async function pidOf(client: { callTool(name: string): Promise<{ structuredContent?: unknown }> }): Promise<number> {
  const result = await client.callTool('pid');
  return (result.structuredContent as { pid: number }).pid;
}

describe('DirectClient over stdio (fixture server)', () => {
  test('calls a tool, and the child is gone after close', async () => {
    const client = await kit.direct(fixture()).connect();
    const echoed = await client.callTool('echo', { text: 'over stdio' });
    expect(echoed.content).toEqual([{ type: 'text', text: 'over stdio' }]);
    const pid = await pidOf(client);
    expect(pidAlive(pid)).toBe(true);
    await client.close();
    expect(await waitForExit(pid)).toBe(true);
    await expect(client.listAllTools()).rejects.toThrow(/closed/);
    const names = client.finalTrace!.events.map((e) => e.kind);
    expect(names).toEqual(expect.arrayContaining(['process.started', 'transport.connected', 'mcp.initialized']));
    expect(client.result!.traceView.runtime.kind).toBe('direct');
  });

  test('each connection gets a fresh child', async () => {
    const a = await kit.direct(fixture()).connect();
    const b = await kit.direct(fixture()).connect();
    const [pa, pb] = [await pidOf(a), await pidOf(b)];
    expect(pa).not.toBe(pb);
    await Promise.all([a.close(), b.close()]);
    expect(await waitForExit(pa)).toBe(true);
    expect(await waitForExit(pb)).toBe(true);
  });

  test('closing during an in-flight call cancels it and reaps the child', async () => {
    const client = await kit.direct(fixture()).connect();
    const pid = await pidOf(client);
    // The call would run for ten minutes: a close that waited for it would fail the test by its
    // timeout, so no wall-clock assertion is needed to show that close does not wait.
    const call = client.callTool('slow', { ms: 600_000 }).catch((e: unknown) => e);
    await new Promise((r) => setTimeout(r, 100));
    await client.close();
    expect(await call).toBeInstanceOf(OperationCancelled);
    expect(client.result?.snapshot.outcome).toBe('cancelled');
    expect(await waitForExit(pid)).toBe(true);
  });

  test('closing while the child is still starting reaps it', async () => {
    const client = kit.direct(fixture());
    const connecting = client.connect().catch((e: unknown) => e);
    await new Promise((r) => setTimeout(r, 30));
    await client.close();
    expect(await connecting).toBeInstanceOf(OperationCancelled);
    const started = client.finalTrace!.events.find((e) => e.kind === 'process.started');
    const pid = started?.payload.pid;
    expect(typeof pid).toBe('number');
    expect(await waitForExit(pid as number)).toBe(true);
    expect(client.result?.snapshot.outcome).toBe('cancelled');
  });

  test('a server that exits mid-call gives a TransportError and a failed execution', async () => {
    const client = await kit.direct(fixture(), { timeoutMs: 10_000 }).connect();
    const error = (await client.callTool('exit').catch((e: unknown) => e)) as M3Error;
    expect(error).toBeInstanceOf(TransportError);
    expect(error.message).toMatch(/exited with code 3 before answering tools\/call/);
    await expect(client.ping()).rejects.toThrow(TransportError);
    await client.close();
    expect(client.result?.snapshot.outcome).toBe('failed');
    expect(client.result?.error?.code).toBe('transport_error');
    const events = client.finalTrace!.events;
    expect(events.find((e) => e.kind === 'process.exited')?.payload).toMatchObject({ exitCode: 3 });
    expect(events.some((e) => e.kind === 'transport.disconnected')).toBe(true);
    expect(events.some((e) => e.kind === 'diagnostic' && e.payload.code === 'transport_closed')).toBe(true);
  });

  test('kit.close reaps a forgotten client; no child outlives the kit', async () => {
    const forgotten = await kit.direct(fixture()).connect();
    const busy = await kit.direct(fixture()).connect();
    const pids = [await pidOf(forgotten), await pidOf(busy)];
    const inFlight = busy.callTool('slow', { ms: 20_000 }).catch((e: unknown) => e);
    await new Promise((r) => setTimeout(r, 50));
    await kit.close();
    expect(await inFlight).toBeInstanceOf(OperationCancelled);
    for (const pid of pids) expect(pidAlive(pid)).toBe(false);
    expect(forgotten.result?.snapshot.outcome).toBe('completed');
    expect(busy.result?.snapshot.outcome).toBe('cancelled');
    expect(() => kit.direct(fixture())).toThrow(KitClosed);
  });

  test('a secret passed in the env never reaches the trace or the store', async () => {
    const secret = 'fixture-token-9f8e7d6c5b4a';
    process.env.M3_CLIENT_FIXTURE_TOKEN = secret;
    try {
      const client = await kit.direct(fixture({ FIXTURE_TOKEN: secretFromEnv('M3_CLIENT_FIXTURE_TOKEN') })).connect();
      await client.callTool('echo', { text: `leak ${secret}` });
      await client.close();
      const stored = await kit.getTrace(client.executionId);
      expect(JSON.stringify(stored)).not.toContain(secret);
      expect(JSON.stringify(client.result!.traceView)).not.toContain(secret);
      expect(JSON.stringify(stored)).toContain('[REDACTED]');
    } finally {
      delete process.env.M3_CLIENT_FIXTURE_TOKEN;
    }
  });

  test('a command that cannot start fails connect with a startup error and a failed execution', async () => {
    const missing = new StdioServer({ name: 'missing', command: 'definitely-not-a-command-m3' });
    const client = kit.direct(missing);
    const error = (await client.connect().catch((e: unknown) => e)) as M3Error;
    expect(error).toBeInstanceOf(TransportError);
    expect(error.message).not.toContain('definitely-not-a-command-m3');
    expect(client.closed).toBe(true);
    expect(client.result?.snapshot.outcome).toBe('failed');
    expect((await kit.store.getExecution(client.executionId)).outcome).toBe('failed');
  });
});

describe('DirectClient over stdio (@modelcontextprotocol/server-everything)', () => {
  const everything = new StdioServer({
    name: 'everything',
    command: process.execPath,
    args: [SERVER_EVERYTHING, 'stdio'],
  });

  test('discovers its tools and calls echo', async () => {
    const client = await kit.direct(everything, { timeoutMs: 20_000 }).connect();
    expect(client.initialization?.serverInfo.name).toBeTruthy();
    const tools = await client.listAllTools();
    expect(tools.map((t) => t.name)).toContain('echo');
    const echoed = await client.callTool('echo', { message: 'hello everything' });
    expect(echoed.isError).toBe(false);
    expect(JSON.stringify(echoed.content)).toContain('hello everything');
    const resources = await client.listAllResources();
    expect(resources.length).toBeGreaterThan(0);
    await client.close();
    expect(client.result?.snapshot.outcome).toBe('completed');
  });
});
