import { execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { releaseServerBin } from './binPaths';
import { createReleaseServer, newReleaseState, type ReleaseEra } from './releaseServer';
import { parseV2ServeArgs, serveV2Http } from './serveV2';

const repoRoot = join(__dirname, '..', '..', '..');

/** An SDK v2 client pinned to 2026-07-28 (`modern`) or running the 2025 handshake (`legacy`). */
function clientIn(era: ReleaseEra): Client {
  return new Client(
    { name: 'serve-v2-test', version: '1.0.0' },
    { versionNegotiation: { mode: era === 'modern' ? { pin: '2026-07-28' } : 'legacy' } },
  );
}

describe('parseV2ServeArgs', () => {
  test('defaults to stdio serving both eras; takes --http <port> and --modern-only in any order', () => {
    expect(parseV2ServeArgs([])).toEqual({ transport: { kind: 'stdio' }, modernOnly: false });
    expect(parseV2ServeArgs(['--http', '0'])).toEqual({ transport: { kind: 'http', port: 0 }, modernOnly: false });
    expect(parseV2ServeArgs(['--modern-only', '--http', '8123'])).toEqual({
      transport: { kind: 'http', port: 8123 },
      modernOnly: true,
    });
    expect(parseV2ServeArgs(['--modern-only'])).toEqual({ transport: { kind: 'stdio' }, modernOnly: true });
  });

  test.each([
    [['--http']],
    [['--http', 'abc']],
    [['--http', '70000']],
    [['--port', '1']],
    [['--http', '1', '--http', '2']],
    [['--modern-only', '--modern-only']],
  ])('rejects %j naming the usage', (argv) => {
    expect(() => parseV2ServeArgs(argv)).toThrow(/usage: \[--http <port>\] \[--modern-only\]/);
  });
});

describe('serveV2Http (in-process)', () => {
  test.each<ReleaseEra>(['modern', 'legacy'])(
    'serves the %s era, every request from the state of the process',
    async (era) => {
      const state = newReleaseState();
      const endpoint = await serveV2Http((ctx) => createReleaseServer(ctx, state), 0);
      expect(endpoint.url).toBe(`http://127.0.0.1:${endpoint.port}/mcp`);
      const client = clientIn(era);
      try {
        await client.connect(new StreamableHTTPClientTransport(new URL(endpoint.url)));
        expect(client.getProtocolEra()).toBe(era);
        await client.callTool({ name: 'enable_rollback', arguments: {} });
        expect(state.rollbackEnabled).toBe(true);
        const { tools } = await client.listTools(undefined, { cacheMode: 'bypass' });
        expect(tools.map((t) => t.name)).toContain('rollback');
      } finally {
        await client.close();
        await endpoint.close();
      }
    },
  );

  test('modernOnly refuses the 2025 handshake and still serves 2026-07-28', async () => {
    const endpoint = await serveV2Http((ctx) => createReleaseServer(ctx), 0, true);
    const legacy = clientIn('legacy');
    const modern = clientIn('modern');
    try {
      await expect(legacy.connect(new StreamableHTTPClientTransport(new URL(endpoint.url)))).rejects.toThrow(
        /Unsupported protocol version: 2025-11-25.*"supported":\["2026-07-28"\]/,
      );
      await modern.connect(new StreamableHTTPClientTransport(new URL(endpoint.url)));
      expect(modern.getProtocolEra()).toBe('modern');
    } finally {
      await legacy.close().catch(() => undefined);
      await modern.close();
      await endpoint.close();
    }
  });

  test('answers 404 off /mcp', async () => {
    const endpoint = await serveV2Http((ctx) => createReleaseServer(ctx), 0);
    try {
      const response = await fetch(endpoint.url.replace('/mcp', '/other'));
      expect(response.status).toBe(404);
    } finally {
      await endpoint.close();
    }
  });
});

describe('release-server binary', () => {
  beforeAll(() => {
    if (!existsSync(releaseServerBin)) {
      execFileSync('npx', ['tsc', '-b', 'examples/servers'], { cwd: repoRoot, stdio: 'inherit' });
    }
  });

  test.each<ReleaseEra>(['modern', 'legacy'])('serves the %s era over stdio', async (era) => {
    const client = clientIn(era);
    try {
      await client.connect(new StdioClientTransport({ command: process.execPath, args: [releaseServerBin] }));
      expect(client.getProtocolEra()).toBe(era);
      const result = await client.callTool({ name: 'current_version', arguments: {} });
      expect(result.structuredContent).toEqual({ version: '1.0.0' });
    } finally {
      await client.close();
    }
  });

  test('exits 2 with the usage on bad arguments', async () => {
    const child = spawn(process.execPath, [releaseServerBin, '--http', 'nope'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(2);
    expect(stderr).toMatch(/usage: \[--http <port>\] \[--modern-only\]/);
  });
});
