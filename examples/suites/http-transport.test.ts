// The same server over Streamable HTTP: the kit owns the connection, never the server.
import { spawn, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import { httpServer } from './servers';

function startHttpExampleServer(): Promise<{ child: ChildProcess; url: string }> {
  const script = path.resolve(__dirname, '../servers/dist/bin/example-server.js');
  const child = spawn(process.execPath, [script, '--http', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(output);
      if (match) resolve({ child, url: match[1] as string });
    });
    child.once('exit', (code) => reject(new Error(`example server exited with ${String(code)}`)));
  });
}

describe.m3('http transport', () => {
  let server: { child: ChildProcess; url: string };
  beforeAll(async () => {
    server = await startHttpExampleServer();
  });
  afterAll(() => server.child.kill());

  test('call a tool over Streamable HTTP', async () => {
    const client = await m3Kit.direct(httpServer(server.url)).connect();
    const result = await client.callTool('shipping_quote', { weight_kg: 2, zone: 'local' });
    expect(result).toHaveStructuredContent({ amount: 9, currency: 'USD' });
    await client.close();
    expect(client).toHaveTransport('http');
  });
});
