import { createExampleServer } from '@sf-m3/example-servers';
import { ProtocolError, ProtocolVersionError, UnsupportedFeature } from '../errors';
import { InProcessServer } from '../servers/InProcessServer';
import type { ServerDefinition } from '../servers/ServerDefinition';
import type { DirectClient } from './DirectClient';
import { useKitPerTest } from '@sf-m3/test-utils/client';
import { startV2Http, v2InProcess, v2Stdio, type V2HttpEndpoint } from '@sf-m3/test-utils/client';

const kit = useKitPerTest({ suiteName: 'protocol-eras', caseId: 'eras' });

let both: V2HttpEndpoint;
let modernOnly: V2HttpEndpoint;
beforeAll(async () => {
  [both, modernOnly] = await Promise.all([startV2Http('both'), startV2Http('modern-only')]);
});
afterAll(() => {
  both?.close();
  modernOnly?.close();
});

/** The fixture definitions, by transport, serving both eras. */
const bothEras = (): Record<string, ServerDefinition> => ({
  stdio: v2Stdio('both'),
  http: both.server(),
  in_process: v2InProcess(),
});

/** Lists and calls a tool; the trace records the call. */
async function exercise(client: DirectClient): Promise<void> {
  const tools = (await client.listAllTools()).map((t) => t.name);
  expect(tools).toEqual(expect.arrayContaining(['echo', 'add', 'confirm']));
  const echo = await client.callTool('echo', { text: 'hi' });
  expect(echo.content).toEqual([{ type: 'text', text: `${client.initialization.era}: hi` }]);
  const sum = await client.callTool('add', { a: 2, b: 3 });
  expect(sum.structuredContent).toEqual({ sum: 5 });
}

/** Closes the client; its trace records both tool calls as successes. */
async function closeAndCheckTrace(client: DirectClient): Promise<void> {
  await client.close();
  const calls = client.finalTrace.view().toolCalls;
  expect(calls.map((c) => c.tool.value)).toEqual(['echo', 'add']);
  expect(calls.every((c) => c.status === 'success')).toBe(true);
}

describe.each(['stdio', 'http', 'in_process'])('an SDK v2 server over %s', (transport) => {
  test('auto connects in the modern era, with the server identity from server/discover', async () => {
    const client = await kit().direct(bothEras()[transport]!).connect();
    expect(client.initialization).toMatchObject({
      protocolVersion: '2026-07-28',
      era: 'modern',
      serverInfo: { name: 'v2-era-server', version: '2.4.0-fixture' },
      instructions: 'served in the modern era',
    });
    expect(client.initialization.capabilities).toHaveProperty('tools');
    await exercise(client);
    for (const gone of [() => client.ping(), () => client.setLoggingLevel('info')]) {
      await expect(gone()).rejects.toThrow(UnsupportedFeature);
    }
    await expect(client.subscribeResource('memory://x')).rejects.toThrow(
      /resources\/subscribe does not exist in the 2026-07-28 protocol revision.*protocol: 'legacy'/,
    );
    const discovered = await client.discover();
    expect(discovered.supportedVersions).toContain('2026-07-28');
    await closeAndCheckTrace(client);
    const stored = await kit().store.getExecution(client.executionId);
    expect(stored.snapshot).toMatchObject({ protocol: { protocolVersion: '2026-07-28', era: 'modern' } });
    const init = client.finalTrace.view().timeline.find((e) => e.kind === 'initialization');
    expect(init).toMatchObject({
      protocolVersion: { state: 'observed', value: '2026-07-28' },
      era: { state: 'observed', value: 'modern' },
    });
  });

  test('legacy runs the 2025 handshake against the same server', async () => {
    const client = await kit().direct(bothEras()[transport]!, { protocol: 'legacy' }).connect();
    expect(client.initialization).toMatchObject({ era: 'legacy', instructions: 'served in the legacy era' });
    expect(client.initialization.protocolVersion).toMatch(/^2025-/);
    await exercise(client);
    await expect(client.discover()).rejects.toThrow(UnsupportedFeature);
    await expect(client.discover()).rejects.toThrow(/discover needs a 2026-07-28 connection/);
    await closeAndCheckTrace(client);
    const stored = await kit().store.getExecution(client.executionId);
    expect(stored.snapshot).toMatchObject({
      protocol: { protocolVersion: client.initialization.protocolVersion, era: 'legacy' },
    });
  });

  test('pinning 2025-06-18 asks for that revision and gets it', async () => {
    const client = await kit().direct(bothEras()[transport]!, { protocol: '2025-06-18' }).connect();
    expect(client.initialization).toMatchObject({ era: 'legacy', protocolVersion: '2025-06-18' });
    await client.close();
  });
});

describe.each(['stdio', 'http'])('an SDK v2 server that serves only 2026-07-28 over %s', (transport) => {
  const server = (protocol?: 'legacy' | '2026-07-28') =>
    transport === 'stdio' ? v2Stdio('modern-only', protocol) : modernOnly.server(protocol);

  test('auto connects in the modern era', async () => {
    const client = await kit().direct(server()).connect();
    expect(client.initialization.era).toBe('modern');
    await exercise(client);
    await closeAndCheckTrace(client);
  });

  test('legacy fails clearly: the server refuses the handshake', async () => {
    const error = await kit()
      .direct(server('legacy'))
      .connect()
      .catch((e: unknown) => e);
    expect({ type: (error as Error).constructor.name, message: (error as Error).message }).toEqual({
      type: 'ProtocolVersionError',
      message: expect.stringMatching(/refused the 2025 initialize handshake: it serves only 2026-07-28/),
    });
    expect(error).toBeInstanceOf(ProtocolError);
    expect((error as ProtocolVersionError).details).toMatchObject({ offered: ['2026-07-28'] });
    expect((error as Error).message).toMatch(/refused the 2025 initialize handshake: it serves only 2026-07-28/);
  });
});

describe('a v1 server', () => {
  const example = new InProcessServer({ name: 'example-v1', factory: createExampleServer });

  test('auto falls back to the handshake; the probe is on the initialization entry', async () => {
    const client = await kit().direct(example).connect();
    expect(client.initialization.era).toBe('legacy');
    await client.close();
    const initialized = client.finalTrace.events.find((e) => e.kind === 'mcp.initialized');
    expect(initialized?.payload).toMatchObject({
      era: 'legacy',
      negotiation: { mode: expect.stringMatching(/probe|cached/) },
    });
  });

  test('a second auto connect to the same definition skips the probe: the era found is cached for the run', async () => {
    const server = new InProcessServer({ name: 'example-v1-cached', factory: createExampleServer });
    const negotiation = async (): Promise<unknown> => {
      const client = await kit().direct(server).connect();
      await client.close();
      const events = client.finalTrace.events;
      expect(events.filter((e) => e.kind === 'mcp.request').map((e) => e.payload.method)).not.toContain(
        'server/discover',
      );
      return events.find((e) => e.kind === 'mcp.initialized')?.payload.negotiation;
    };
    expect(await negotiation()).toEqual({
      mode: 'probe',
      detail: expect.stringMatching(/^server\/discover returned JSON-RPC error -32601/),
    });
    expect(await negotiation()).toEqual({ mode: 'cached' });
    // A new definition of the same server probes again.
    const again = await kit()
      .direct(new InProcessServer({ name: 'example-v1-cached', factory: createExampleServer }))
      .connect();
    await again.close();
    expect(again.finalTrace.events.find((e) => e.kind === 'mcp.initialized')?.payload.negotiation).toMatchObject({
      mode: 'probe',
    });
  });

  test('pinning 2026-07-28 fails with ProtocolVersionError, never a silent fallback', async () => {
    const error = await kit()
      .direct(example, { protocol: '2026-07-28' })
      .connect()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProtocolVersionError);
    expect((error as ProtocolVersionError).details).toMatchObject({ requested: '2026-07-28', offered: [] });
    expect((error as Error).message).toMatch(
      /does not offer protocol revision 2026-07-28 \(server\/discover returned JSON-RPC error -32601/,
    );
  });
});
