// Real MCP traffic through the proxy: the SDK client against server-everything, and the example
// server's exact bytes compared direct versus proxied.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { buildProxyCommand } from './buildProxyCommand';
import { CaptureFile } from './CaptureFile';
import { createProxyConfig, writeProxyConfig } from './ProxyConfig';

const ROOT = join(__dirname, '..', '..', '..', '..');
const everything = join(ROOT, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');
const exampleServer = join(ROOT, 'examples', 'servers', 'dist', 'bin', 'example-server.js');

async function proxied(serverName: string, command: string, args: string[], tools?: string[]) {
  const capturePath = join(mkdtempSync(join(tmpdir(), 'sf-m3-proxy-sdk-')), 'capture.jsonl');
  const config = createProxyConfig({ serverName, command, args, capturePath, tools });
  return { ...buildProxyCommand(await writeProxyConfig(config)), capturePath };
}

/** Feeds lines one at a time (waiting for each answer) and returns every byte the server wrote. */
async function converse(command: string, args: string[], lines: string[]): Promise<Buffer> {
  const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'ignore'] });
  const guard = setTimeout(() => child.kill('SIGKILL'), 15_000);
  const out: Buffer[] = [];
  let seen = 0;
  let wake = () => {};
  child.stdout.on('data', (chunk: Buffer) => {
    out.push(chunk);
    wake();
  });
  const countLines = () => Buffer.concat(out).toString().split('\n').length - 1;
  for (const line of lines) {
    child.stdin.write(`${line}\n`);
    if (!line.includes('"id"')) continue;
    seen += 1;
    while (countLines() < seen && child.exitCode === null) {
      await new Promise<void>((resolve) => {
        wake = resolve;
        setTimeout(resolve, 100);
      });
    }
  }
  child.stdin.end();
  await new Promise((resolve) => child.on('close', resolve));
  clearTimeout(guard);
  return Buffer.concat(out);
}

describe('capture proxy with real MCP servers', () => {
  test('the SDK client works through the proxy and every message is captured', async () => {
    const { command, args, capturePath } = await proxied(
      'everything',
      process.execPath,
      [everything, 'stdio'],
      ['everything:echo'],
    );
    const client = new Client({ name: 'sf-m3-proxy-test', version: '1.0.0' });
    await client.connect(new StdioClientTransport({ command, args, stderr: 'ignore' }));
    try {
      const tools = await client.listTools();
      expect(tools.tools.map((t) => t.name)).toEqual(expect.arrayContaining(['echo', 'get-sum']));
      const echoed = await client.callTool({ name: 'echo', arguments: { message: 'héllo 😀' } });
      expect(echoed.content).toEqual([{ type: 'text', text: 'Echo: héllo 😀' }]);
      await expect(client.callTool({ name: 'get-sum', arguments: { a: 1, b: 2 } })).rejects.toThrow(
        "MCP error -32001: MCP tool call 'everything:get-sum' was denied by this test's tool policy (not in the allowlist)",
      );
    } finally {
      await client.close();
    }
    const capture = await CaptureFile.readAll(capturePath);
    const methods = capture.frames.flatMap((f) => f.messages ?? []).map((m) => m.method ?? m.kind);
    expect(methods).toEqual(
      expect.arrayContaining(['initialize', 'notifications/initialized', 'tools/list', 'tools/call']),
    );
    expect(capture.frames.every((f) => f.intact && f.format === 'json')).toBe(true);
    const calls = capture.frames.filter((f) => f.messages?.[0].method === 'tools/call');
    expect(calls.map((f) => [f.messages?.[0].tool, f.forwarded])).toEqual([
      ['echo', true],
      ['get-sum', false],
    ]);
  });

  test('the example server’s bytes arrive identical through the proxy', async () => {
    const lines = [
      '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}',
      '{"jsonrpc":"2.0","method":"notifications/initialized"}',
      '{"jsonrpc":"2.0","id":2,"method":"tools/list"}',
      '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"shipping_quote","arguments":{"weight_kg":2,"zone":"local"}}}',
      '{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"no_such_tool","arguments":{}}}',
    ];
    const direct = await converse(process.execPath, [exampleServer], lines);
    const { command, args, capturePath } = await proxied('example', process.execPath, [exampleServer]);
    const through = await converse(command, args, lines);
    expect(direct.length).toBeGreaterThan(0);
    expect(through.equals(direct)).toBe(true);
    // With nothing to redact, the capture holds exactly the relayed bytes, frame by frame.
    const capture = await CaptureFile.readAll(capturePath);
    const fromServer = capture.frames.filter((f) => f.direction === 'server_to_client').map((f) => `${f.raw}\n`);
    expect(Buffer.from(fromServer.join('')).equals(direct)).toBe(true);
    const fromClient = capture.frames.filter((f) => f.direction === 'client_to_server').map((f) => f.raw);
    expect(fromClient).toEqual(lines);
    expect(readFileSync(capturePath, 'utf8').endsWith('\n')).toBe(true);
  });
});
