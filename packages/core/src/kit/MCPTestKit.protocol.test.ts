// `new MCPTestKit({ protocol })`: the setting `describe.m3({ protocols })` gives each test's kit.
// Checked against the SDK v2 fixture server in process, which serves both eras.
import { v2InProcess } from '@sf-m3/test-utils/client';
import { MCPTestKit } from './MCPTestKit';

describe('MCPTestKit protocol', () => {
  const kits: MCPTestKit[] = [];
  const kit = (options: ConstructorParameters<typeof MCPTestKit>[0] = {}) => {
    const made = new MCPTestKit(options);
    kits.push(made);
    return made;
  };
  afterEach(async () => {
    await Promise.all(kits.splice(0).map((k) => k.close()));
  });

  test.each([
    ['2025-11-25', 'legacy'],
    ['2026-07-28', 'modern'],
  ] as const)('a kit pinned to %s connects in that era and labels the execution with it', async (revision, era) => {
    const pinned = kit({ protocol: revision });
    const client = await pinned.direct(v2InProcess()).connect();
    expect(client.initialization).toMatchObject({ protocolVersion: revision, era });
    await client.close();
    const [record] = await pinned.store.listExecutions({ runId: pinned.runId });
    expect(record!.labels.metadata).toEqual({ protocolVersion: revision });
  });

  test("kit.direct's own protocol (or protocolVersion) wins over the kit's, and the kit's over the definition's", async () => {
    const pinned = kit({ protocol: '2025-11-25' });
    const own = await pinned.direct(v2InProcess(), { protocol: '2026-07-28' }).connect();
    expect(own.initialization.era).toBe('modern');
    await own.close();
    const handshake = await pinned.direct(v2InProcess(), { protocolVersion: '2025-06-18' }).connect();
    expect(handshake.initialization).toMatchObject({ era: 'legacy', protocolVersion: '2025-06-18' });
    await handshake.close();
    const overDefinition = await pinned.direct(v2InProcess('2026-07-28')).connect();
    expect(overDefinition.initialization.era).toBe('legacy');
    await overDefinition.close();
  });

  test('without a protocol the definition decides and nothing is labelled', async () => {
    const plain = kit();
    const client = await plain.direct(v2InProcess()).connect();
    expect(client.initialization.era).toBe('modern');
    await client.close();
    const [record] = await plain.store.listExecutions({ runId: plain.runId });
    expect(record!.labels.metadata).toEqual({});
  });

  test('a bad protocol names the accepted values', () => {
    expect(() => new MCPTestKit({ protocol: '2024' as never })).toThrow(
      /MCPTestKit protocol must be one of 'auto', 'legacy', '2026-07-28'/,
    );
  });
});
