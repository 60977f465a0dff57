import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  PROTOCOL_VERSION_META_KEY,
  SERVER_INFO_META_KEY,
} from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createExampleServer } from '@sf-m3/example-servers';
import { StartedTransport } from '../transport/StartedTransport';
import { classifyProbeAnswer, ENVELOPE_KEYS, probeEra, retryRevision } from './eraProbe';
import { V2_ERA_SERVER } from '@sf-m3/test-utils/client';

const options = { timeoutMs: 5000, clientInfo: { name: 'sf-m3', version: '0.1.0' }, capabilities: {} };

describe('the server/discover probe', () => {
  test('sends the envelope under the keys the SDK v2 uses', () => {
    expect(ENVELOPE_KEYS).toEqual({
      protocolVersion: PROTOCOL_VERSION_META_KEY,
      clientInfo: CLIENT_INFO_META_KEY,
      clientCapabilities: CLIENT_CAPABILITIES_META_KEY,
      serverInfo: SERVER_INFO_META_KEY,
    });
  });

  test('a v1 server answers method-not-found: legacy, and the connection stays usable', async () => {
    const [client, server] = InMemoryTransport.createLinkedPair();
    await createExampleServer().connect(server);
    const verdict = await probeEra(client, options);
    expect(verdict).toMatchObject({ era: 'legacy', closed: false, offered: [] });
    expect(verdict.era === 'legacy' && verdict.reason).toMatch(/^server\/discover returned JSON-RPC error -32601/);
    const sdk = new Client({ name: 'probe-test', version: '1' });
    await sdk.connect(new StartedTransport(client));
    expect((await sdk.listTools()).tools.length).toBeGreaterThan(0);
    await sdk.close();
  });

  test('an SDK v2 server served in both eras answers with its revisions: modern', async () => {
    const { createV2Server } = require(V2_ERA_SERVER) as { createV2Server: (c: { era: string }) => never };
    const { serveStdio } = require('@modelcontextprotocol/server/stdio') as {
      serveStdio: (f: unknown, o: unknown) => { close(): Promise<void> };
    };
    const [client, server] = InMemoryTransport.createLinkedPair();
    const handle = serveStdio(createV2Server, { legacy: 'serve', transport: server });
    const verdict = await probeEra(client, options);
    expect(verdict.era).toBe('modern');
    expect(verdict.era === 'modern' && verdict.discover).toMatchObject({ supportedVersions: ['2026-07-28'] });
    await handle.close();
  });

  test('classifies answers without modern evidence as legacy, naming what was offered', () => {
    expect(
      classifyProbeAnswer({ jsonrpc: '2.0', id: 'x', result: { supportedVersions: ['2027-01-01'], capabilities: {} } }),
    ).toMatchObject({ era: 'legacy', offered: ['2027-01-01'] });
    expect(
      classifyProbeAnswer({
        jsonrpc: '2.0',
        id: 'x',
        error: { code: -32022, message: 'Unsupported protocol version', data: { supported: ['2027-01-01'] } },
      }),
    ).toMatchObject({ era: 'legacy', offered: ['2027-01-01'] });
  });
});

describe('retryRevision (sep-2575-client-retry-supported-version)', () => {
  const rejected = (code: number, supported: unknown) =>
    ({
      jsonrpc: '2.0',
      id: 'm3-era-probe',
      error: { code, message: 'Unsupported protocol version', data: { supported } },
    }) as const;

  test('-32022 naming a revision the kit speaks: retry with it', () => {
    expect(retryRevision(rejected(-32022, ['2099-01-01', '2026-07-28']))).toBe('2026-07-28');
  });

  test('-32022 naming only revisions the kit does not speak, another error, or a result: no retry', () => {
    expect(retryRevision(rejected(-32022, ['2025-11-25']))).toBeUndefined();
    expect(retryRevision(rejected(-32022, 'not a list'))).toBeUndefined();
    expect(retryRevision(rejected(-32601, ['2026-07-28']))).toBeUndefined();
    expect(retryRevision({ jsonrpc: '2.0', id: 'm3-era-probe', result: {} })).toBeUndefined();
  });
});
