import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { exampleServerBin, mathServerBin } from './binPaths';
import { createExampleServer } from './exampleServer';
import { parseServeArgs, serveHttp } from './serve';
import { structured } from './servers.testkit';

const repoRoot = join(__dirname, '..', '..', '..');

function newClient(): Client {
  return new Client({ name: 'serve-test', version: '1.0.0' });
}

/** Spawns a compiled bin with `--http 0` and resolves the URL it prints. */
function spawnHttp(bin: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [bin, '--http', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error('server did not print its URL within 10 s')), 10_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      const match = /^listening on (http:\/\/127\.0\.0\.1:(\d+)\/mcp)$/m.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve({ child, url: match[1]! });
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited early with ${String(code)}`));
    });
  });
}

function exited(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

describe('parseServeArgs', () => {
  test('defaults to stdio and accepts --http <port>', () => {
    expect(parseServeArgs([])).toEqual({ kind: 'stdio' });
    expect(parseServeArgs(['--http', '0'])).toEqual({ kind: 'http', port: 0 });
    expect(parseServeArgs(['--http', '8123'])).toEqual({ kind: 'http', port: 8123 });
  });

  test.each([[['--http']], [['--http', 'abc']], [['--http', '70000']], [['--port', '1']]])('rejects %j', (argv) => {
    expect(() => parseServeArgs(argv)).toThrow(/usage: \[--http <port>\]/);
  });
});

describe('serveHttp (in-process)', () => {
  test('gives each session its own server state', async () => {
    const endpoint = await serveHttp(createExampleServer, 0);
    expect(endpoint.url).toBe(`http://127.0.0.1:${endpoint.port}/mcp`);
    const first = newClient();
    const second = newClient();
    try {
      await first.connect(new StreamableHTTPClientTransport(new URL(endpoint.url)));
      await second.connect(new StreamableHTTPClientTransport(new URL(endpoint.url)));
      await first.callTool({ name: 'create_order', arguments: { customer_id: 'ada', item: 'engine', quantity: 1 } });
      expect(
        structured(await first.callTool({ name: 'get_order', arguments: { order_id: 'order-001' } })),
      ).toMatchObject({
        item: 'engine',
      });
      const missing = await second.callTool({ name: 'get_order', arguments: { order_id: 'order-001' } });
      expect(missing.isError).toBe(true);
    } finally {
      await first.close();
      await second.close();
      await endpoint.close();
    }
  });

  test('refuses requests without a session and other paths', async () => {
    const endpoint = await serveHttp(createExampleServer, 0);
    try {
      const noSession = await fetch(endpoint.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
      expect(noSession.status).toBe(400);
      const otherPath = await fetch(endpoint.url.replace('/mcp', '/other'));
      expect(otherPath.status).toBe(404);
    } finally {
      await endpoint.close();
    }
  });
});

describe('compiled server binaries', () => {
  beforeAll(() => {
    if (!existsSync(exampleServerBin) || !existsSync(mathServerBin)) {
      execFileSync('npx', ['tsc', '-b', 'examples/servers'], { cwd: repoRoot, stdio: 'inherit' });
    }
  }, 120_000);

  test('example server over stdio', async () => {
    const client = newClient();
    const transport = new StdioClientTransport({ command: process.execPath, args: [exampleServerBin], stderr: 'pipe' });
    await client.connect(transport);
    try {
      expect(client.getServerVersion()?.name).toBe('mcp-pal-example-server');
      const quote = await client.callTool({ name: 'shipping_quote', arguments: { weight_kg: 2, zone: 'local' } });
      expect(structured(quote)).toEqual({ amount: 9, currency: 'USD' });
      const pid = structured(await client.callTool({ name: 'process_id', arguments: {} }))?.pid;
      expect(pid).toBe(transport.pid);
    } finally {
      await client.close();
    }
  });

  test('math server over stdio', async () => {
    const client = newClient();
    await client.connect(
      new StdioClientTransport({ command: process.execPath, args: [mathServerBin], stderr: 'pipe' }),
    );
    try {
      expect(client.getServerVersion()?.name).toBe('m3-math-server');
      expect(structured(await client.callTool({ name: 'multiply_tool', arguments: { a: 6, b: 7 } }))).toEqual({
        result: 42,
      });
    } finally {
      await client.close();
    }
  });

  test.each([
    [
      'example',
      exampleServerBin,
      'shipping_quote',
      { weight_kg: 3, zone: 'regional' },
      { amount: 15.5, currency: 'USD' },
    ],
    ['math', mathServerBin, 'add_tool', { a: 2, b: 3 }, { result: 5 }],
  ])('%s server over Streamable HTTP, stopped by SIGTERM', async (_label, bin, tool, args, expected) => {
    const { child, url } = await spawnHttp(bin);
    const client = newClient();
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));
      expect(structured(await client.callTool({ name: tool, arguments: args }))).toEqual(expected);
      await client.close();
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited(child)).toBe(0);
  });

  test('a bad flag exits 2 with usage on stderr', async () => {
    const child = spawn(process.execPath, [exampleServerBin, '--http', 'nope'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    expect(await exited(child)).toBe(2);
    expect(stderr).toMatch(/usage: \[--http <port>\]/);
  });
});
