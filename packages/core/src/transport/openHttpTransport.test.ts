import { spawn } from 'node:child_process';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';
import { EndpointTrustError, ModelValidationError, TransportConnectionError, TransportError } from '../errors';
import { secretFromEnv } from '../redaction/SecretRef';
import { HTTPServer } from '../servers/HTTPServer';
import { ObservedTransport } from './ObservedTransport';
import { openTransport } from './openTransport';
import { CONNECTION, echoThroughEverything, EVERYTHING_ENTRY, setupRecorder } from './transportTest.testkit';

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(
    servers.splice(0).map((s) => new Promise<void>((resolve) => s.close(() => resolve())).catch(() => undefined)),
  );
});

/** A stateless Streamable HTTP MCP server with one tool; remembers the headers it saw. */
async function startMcpHttpServer(seen: IncomingHttpHeaders[]): Promise<string> {
  const http = createServer((req, res) => {
    seen.push(req.headers);
    const mcp = new McpServer({ name: 'http-fixture', version: '1.0.0' });
    mcp.registerTool('add', { inputSchema: { a: z.number(), b: z.number() } }, ({ a, b }) => ({
      content: [{ type: 'text', text: String(a + b) }],
    }));
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => {
      void transport.close();
      void mcp.close();
    });
    void mcp.connect(transport).then(() => transport.handleRequest(req, res));
  });
  servers.push(http);
  return listen(http);
}

describe('openTransport (HTTP)', () => {
  afterAll(() => {
    delete process.env.M3_TEST_HTTP_KEY;
  });

  it('connects to a loopback endpoint with resolved headers and a bearer token that never reach the trace', async () => {
    process.env.M3_TEST_HTTP_KEY = 'http-header-secret-1';
    const seen: IncomingHttpHeaders[] = [];
    const base = await startMcpHttpServer(seen);
    const { recorder, redactor } = setupRecorder();
    const server = new HTTPServer({
      name: 'remote',
      url: `${base}/mcp`,
      headers: { 'X-Api-Key': secretFromEnv('M3_TEST_HTTP_KEY'), 'X-Plain': 'visible' },
    });
    const opened = await openTransport(server, {
      redactor,
      recorder,
      connectionId: CONNECTION,
      bearerToken: 'bearer-tok-77',
    });
    expect(opened.kind).toBe('http');
    expect(opened.process).toBeUndefined();
    const client = new Client({ name: 'test', version: '1.0.0' });
    await client.connect(
      new ObservedTransport(opened.transport, { recorder, server: 'remote', connectionId: CONNECTION }),
    );
    const result = await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } });
    expect(result.content).toEqual([{ type: 'text', text: '5' }]);
    // Tool arguments that echo a secret are redacted too.
    await client
      .callTool({ name: 'add', arguments: { a: 1, b: 1, note: 'http-header-secret-1' } })
      .catch(() => undefined);
    await client.close();
    await opened.reap();
    await opened.reap();

    expect(seen[0]!['x-api-key']).toBe('http-header-secret-1');
    expect(seen[0]!.authorization).toBe('Bearer bearer-tok-77');
    expect(seen[0]!['x-plain']).toBe('visible');
    const everything = JSON.stringify(recorder.events) + recorder.evidence.map((b) => b.bytes.toString()).join('');
    expect(everything).not.toContain('http-header-secret-1');
    expect(everything).not.toContain('bearer-tok-77');
    expect(redactor.redactText('x bearer-tok-77 y')).toBe('x [REDACTED] y');
    const connected = recorder.events.find((e) => e.kind === 'transport.connected')!;
    expect(connected.payload).toEqual({ transport: 'http', instrumented: 'sdk-transport-wrapper' });
    expect(recorder.events.filter((e) => e.kind === 'tool.result_received')).toHaveLength(2);
  });

  it('refuses to follow a redirect', async () => {
    const hits: string[] = [];
    const http = createServer((req, res) => {
      hits.push(req.url ?? '');
      res.writeHead(302, { Location: 'http://127.0.0.1:1/elsewhere?token=leak' });
      res.end();
    });
    servers.push(http);
    const base = await listen(http);
    const { recorder, redactor } = setupRecorder();
    const opened = await openTransport(new HTTPServer({ name: 'moved', url: `${base}/mcp` }), {
      redactor,
      recorder,
      connectionId: CONNECTION,
    });
    const client = new Client({ name: 'test', version: '1.0.0' });
    const attempt = client.connect(opened.transport);
    await expect(attempt).rejects.toThrow(TransportError);
    await expect(attempt).rejects.toThrow(/answered with a redirect \(302\); redirects are not followed/);
    const error = (await attempt.catch((e: unknown) => e)) as Error;
    expect(error.message).not.toContain('token=leak');
    expect(hits).toEqual(['/mcp']);
    await opened.reap();
  });

  it('reports a refused port as a connection error', async () => {
    const probe = createServer();
    const base = await listen(probe);
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const { recorder, redactor } = setupRecorder();
    const opened = await openTransport(new HTTPServer({ name: 'down', url: `${base}/mcp` }), {
      redactor,
      recorder,
      connectionId: CONNECTION,
    });
    const client = new Client({ name: 'test', version: '1.0.0' });
    const attempt = client.connect(opened.transport);
    await expect(attempt).rejects.toThrow(TransportConnectionError);
    await expect(attempt).rejects.toThrow(/is unreachable \(ECONNREFUSED\): check that the server is running/);
    await opened.reap();
  });

  it('refuses a private host without trust and a credential in the URL, before any request', async () => {
    const { recorder, redactor } = setupRecorder();
    const options = { redactor, recorder, connectionId: CONNECTION };
    await expect(openTransport(new HTTPServer({ name: 'p', url: 'http://10.1.2.3:9/mcp' }), options)).rejects.toThrow(
      EndpointTrustError,
    );
    await expect(openTransport(new HTTPServer({ name: 'p', url: 'http://10.1.2.3:9/mcp' }), options)).rejects.toThrow(
      /pass trust: 'trusted_private'/,
    );
    await expect(
      openTransport(new HTTPServer({ name: 'q', url: 'http://127.0.0.1:9/mcp?api_key=abc' }), options),
    ).rejects.toThrow(EndpointTrustError);
    // Trusted private hosts are allowed (the transport is created; nothing is sent yet).
    const trusted = await openTransport(
      new HTTPServer({ name: 't', url: 'http://10.1.2.3:9/mcp', trust: 'trusted_private' }),
      options,
    );
    await trusted.reap();
    expect(recorder.events.map((e) => e.kind)).toEqual(['execution.created', 'transport.connected']);
  });

  it('refuses a bearer token together with an Authorization header', async () => {
    const { recorder, redactor } = setupRecorder();
    const server = new HTTPServer({
      name: 'a',
      url: 'http://127.0.0.1:9/mcp',
      headers: { Authorization: 'Basic abcd' },
    });
    await expect(
      openTransport(server, { redactor, recorder, connectionId: CONNECTION, bearerToken: 'tok-1234' }),
    ).rejects.toThrow(ModelValidationError);
    // The configured header became a canary all the same.
    expect(redactor.redactText('Basic abcd')).not.toContain('abcd');
  });

  it('talks to server-everything over Streamable HTTP', async () => {
    const probe = createServer();
    const port = Number(new URL(await listen(probe)).port);
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const child = spawn(process.execPath, [EVERYTHING_ENTRY, 'streamableHttp'], {
      env: { PATH: process.env.PATH ?? '', PORT: String(port) },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    try {
      await new Promise<void>((resolve, reject) => {
        let text = '';
        child.stderr.on('data', (chunk: Buffer) => {
          text += chunk.toString();
          if (text.includes('listening')) resolve();
        });
        child.once('exit', () => reject(new Error(`server-everything exited: ${text}`)));
      });
      const { recorder, redactor } = setupRecorder();
      const opened = await openTransport(new HTTPServer({ name: 'everything', url: `http://127.0.0.1:${port}/mcp` }), {
        redactor,
        recorder,
        connectionId: CONNECTION,
      });
      await echoThroughEverything(opened.transport, recorder, 'over http');
      await opened.reap();
      expect(recorder.events.filter((e) => e.kind === 'tool.result_received')).toHaveLength(1);
    } finally {
      child.kill('SIGKILL');
    }
  }, 20_000);
});
