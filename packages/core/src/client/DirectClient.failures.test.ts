// Every failure path of issue 2, through the public API (`kit.direct(...).connect()` and client
// operations): each asserts the error class, its message, the saved execution outcome, and that no
// stdio child outlives the failure.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import {
  EndpointTrustError,
  M3Error,
  ModelValidationError,
  OperationCancelled,
  OperationTimeout,
  ProtocolError,
  TransportConnectionError,
  TransportError,
  TransportStartupError,
} from '../errors';
import { MCPTestKit } from '../kit/MCPTestKit';
import { secretFromEnv } from '../redaction/SecretRef';
import { HTTPServer } from '../servers/HTTPServer';
import { StdioServer } from '../servers/StdioServer';
import type { DirectClient } from './DirectClient';
import { pidAlive, rejection, slowCallInFlight, STDIO_FIXTURE, waitForExit } from '@sf-m3/test-utils/client';
import { ensureExampleServerBuilt, spawnExampleHttp } from './exampleTransports.testkit';

beforeAll(() => ensureExampleServerBuilt(), 120_000);

const MALFORMED_FIXTURE = join(__dirname, '__fixtures__', 'malformed-stdio-server.js');
const fixture = (): StdioServer =>
  new StdioServer({ name: 'fixture', command: process.execPath, args: [STDIO_FIXTURE] });

let kit: MCPTestKit;
const httpServers: Server[] = [];
beforeEach(() => {
  kit = new MCPTestKit({ suiteName: 'failures' });
});
afterEach(async () => {
  await kit.close();
  await Promise.all(httpServers.splice(0).map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
});

async function listenLoopback(handler: Parameters<typeof createServer>[1]): Promise<string> {
  const server = createServer(handler);
  httpServers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** The pid of the fixture child behind `client`. */
async function pidOf(client: DirectClient): Promise<number> {
  return ((await client.callTool('pid')).structuredContent as { pid: number }).pid;
}

/** The connect error, after checking the failed execution was saved. */
async function connectFailure(client: DirectClient): Promise<M3Error> {
  const error = await rejection(client.connect());
  expect(error).toBeInstanceOf(M3Error);
  expect(client.closed).toBe(true);
  expect(client.result?.snapshot.outcome).toBe('failed');
  expect((await kit.store.getExecution(client.executionId)).outcome).toBe('failed');
  return error as M3Error;
}

describe('stdio startup failures', () => {
  test('a missing command is a TransportStartupError that names the server, not the command line', async () => {
    const server = new StdioServer({ name: 'ghost', command: 'm3-no-such-binary-42', args: ['--secret-arg'] });
    const error = await connectFailure(kit.direct(server));
    expect(error).toBeInstanceOf(TransportStartupError);
    expect(error.code).toBe('transport_startup_error');
    expect(error.message).toMatch(/^stdio MCP server startup failed for ghost: /);
    expect(error.message).toMatch(/not found|ENOENT/);
    expect(error.message).not.toContain('m3-no-such-binary-42');
    expect(error.message).not.toContain('--secret-arg');
  });

  test('a relative cwd is refused when the server is defined', () => {
    expect(() => new StdioServer({ name: 'rel', command: process.execPath, cwd: 'some/dir' })).toThrow(
      ModelValidationError,
    );
    expect(() => new StdioServer({ name: 'rel', command: process.execPath, cwd: 'some/dir' })).toThrow(
      /StdioServer rel cwd must be an absolute path/,
    );
    expect(() => new StdioServer({ name: 'rel', command: process.execPath, cwd: '' })).toThrow(
      /cwd must be a non-empty absolute path/,
    );
  });

  test('a cwd that does not exist is a TransportStartupError at connect', async () => {
    const server = new StdioServer({
      name: 'nowhere',
      command: process.execPath,
      args: [STDIO_FIXTURE],
      cwd: '/definitely/not/here/m3',
    });
    const error = await connectFailure(kit.direct(server));
    expect(error).toBeInstanceOf(TransportStartupError);
    expect(error.message).toBe(
      'stdio MCP server startup failed for nowhere: the working directory /definitely/not/here/m3 does not exist ' +
        'or is not a directory; give an existing absolute directory as `cwd`',
    );
    const file = new StdioServer({
      name: 'file',
      command: process.execPath,
      args: [STDIO_FIXTURE],
      cwd: STDIO_FIXTURE,
    });
    expect(await connectFailure(kit.direct(file))).toBeInstanceOf(TransportStartupError);
  });

  test('an unresolvable secret is a TransportStartupError naming the variable, and nothing is spawned', async () => {
    delete process.env.M3_FAILURES_UNSET_SECRET;
    const server = new StdioServer({
      name: 'secretive',
      command: process.execPath,
      args: [STDIO_FIXTURE],
      env: { API_TOKEN: secretFromEnv('M3_FAILURES_UNSET_SECRET') },
    });
    const client = kit.direct(server);
    const error = await connectFailure(client);
    expect(error).toBeInstanceOf(TransportStartupError);
    expect(error.message).toContain('M3_FAILURES_UNSET_SECRET');
    expect(error.message).toBe(
      "server secretive: env entry API_TOKEN uses secretFromEnv('M3_FAILURES_UNSET_SECRET'), but environment variable " +
        'M3_FAILURES_UNSET_SECRET is not set: set it before connecting',
    );
    expect(client.finalTrace!.events.some((e) => e.kind === 'process.started')).toBe(false);
  });
});

describe('HTTP connect failures', () => {
  test('a refused port is a TransportConnectionError saying the endpoint is unreachable', async () => {
    const base = await listenLoopback(() => undefined);
    await new Promise<void>((resolve) => httpServers.pop()!.close(() => resolve()));
    const error = await connectFailure(kit.direct(new HTTPServer({ name: 'down', url: `${base}/mcp` })));
    expect(error).toBeInstanceOf(TransportConnectionError);
    expect(error.message).toBe(
      `HTTP MCP endpoint ${base}/mcp is unreachable (ECONNREFUSED): check that the server is running and the url is right`,
    );
  });

  test.each([
    'http://10.0.0.7:8080/mcp',
    'http://172.20.1.1/mcp',
    'http://192.168.1.10/mcp',
    'http://169.254.169.254/mcp',
    'http://[fd00::1]/mcp',
  ])('a private-range host without trust is an EndpointTrustError saying how to allow it: %s', async (url) => {
    const error = await connectFailure(kit.direct(new HTTPServer({ name: 'internal', url }), { timeoutMs: 2_000 }));
    expect(error).toBeInstanceOf(EndpointTrustError);
    expect(error.message).toMatch(/private|link-local/);
    expect(error.message).toContain("trust: 'trusted_private'");
  });

  test('a credential in the URL is an EndpointTrustError that does not echo the value', async () => {
    const url = 'http://127.0.0.1:9/mcp?access_token=url-secret-value-77';
    const error = await connectFailure(kit.direct(new HTTPServer({ name: 'leaky', url })));
    expect(error).toBeInstanceOf(EndpointTrustError);
    expect(error.message).toMatch(/credential-like query parameter \(access_token\)/);
    expect(error.message).not.toContain('url-secret-value-77');
  });

  test('a redirecting endpoint is refused, not followed', async () => {
    const hits: string[] = [];
    const base = await listenLoopback((req, res) => {
      hits.push(req.url ?? '');
      res.writeHead(307, { Location: 'http://127.0.0.1:1/elsewhere?token=redirect-secret' }).end();
    });
    const error = await connectFailure(kit.direct(new HTTPServer({ name: 'moved', url: `${base}/mcp` })));
    expect(error).toBeInstanceOf(TransportError);
    expect(error.message).toBe(
      `HTTP MCP endpoint ${base}/mcp answered with a redirect (307); redirects are not followed: ` +
        'point the HTTPServer url at the final endpoint',
    );
    expect(error.message).not.toContain('redirect-secret');
    expect(hits).toEqual(['/mcp']);
  });
});

describe('failures during operations (stdio fixture)', () => {
  test('an operation past its timeout is an OperationTimeout naming the operation and the limit', async () => {
    const client = await kit.direct(fixture()).connect();
    const pid = await pidOf(client);
    const error = await rejection(client.callTool('slow', { ms: 10_000 }, { timeoutMs: 200 }));
    expect(error).toBeInstanceOf(OperationTimeout);
    expect(error.message).toBe(
      'tools/call timed out after 200 ms: the server did not answer; raise timeoutMs (kit.direct option or per call) if it is just slow',
    );
    expect((error as OperationTimeout).details).toMatchObject({ operation: 'tools/call', timeoutMs: 200 });
    await client.close();
    expect(client.result?.snapshot.outcome).toBe('failed');
    expect(client.result!.traceView.toolCalls.map((c) => c.toolStatus)).toEqual(['success', 'timed_out']);
    expect(await waitForExit(pid)).toBe(true);
  });

  test('closing during an in-flight call rejects it with OperationCancelled and reaps the child', async () => {
    const client = await kit.direct(fixture()).connect();
    const pid = await pidOf(client);
    const { call } = await slowCallInFlight(client, { ms: 20_000 });
    await client.close();
    const error = await call;
    expect(error).toBeInstanceOf(OperationCancelled);
    expect(error.message).toMatch(/tools\/call was cancelled/);
    expect(client.result?.snapshot.outcome).toBe('cancelled');
    expect(await waitForExit(pid)).toBe(true);
  });

  test('kit.close during an in-flight call rejects it with OperationCancelled and reaps the child', async () => {
    const client = await kit.direct(fixture()).connect();
    const pid = await pidOf(client);
    const { call } = await slowCallInFlight(client, { ms: 20_000 });
    await kit.close();
    const error = await call;
    expect(error).toBeInstanceOf(OperationCancelled);
    expect(error.message).toMatch(/cancelled/);
    expect(pidAlive(pid)).toBe(false);
  });

  test('any call after close is an M3Error that says closed', async () => {
    const client = await kit.direct(fixture()).connect();
    const pid = await pidOf(client);
    await client.close();
    for (const call of [
      () => client.callTool('echo', { text: 'x' }),
      () => client.ping(),
      () => client.listAllTools(),
    ]) {
      const error = await rejection(call());
      expect(error).toBeInstanceOf(M3Error);
      expect(error.message).toMatch(/closed/);
    }
    expect(await waitForExit(pid)).toBe(true);
    expect(client.result?.snapshot.outcome).toBe('completed');
  });

  test('a server that exits mid-call is a TransportError that names its exit code', async () => {
    const client = await kit.direct(fixture(), { timeoutMs: 10_000 }).connect();
    const pid = await pidOf(client);
    const error = await rejection(client.callTool('exit'));
    expect(error).toBeInstanceOf(TransportError);
    expect(error.message).toBe(
      'MCP transport operation failed: tools/call: the server process exited with code 3 before answering tools/call (no stderr output)',
    );
    expect(await waitForExit(pid)).toBe(true);
    await client.close();
    expect(client.result?.snapshot.outcome).toBe('failed');
    expect(client.result!.traceView.toolCalls.map((c) => c.toolStatus)).toEqual(['success', 'transport_error']);
  });
});

describe('the cleanup boundary during startup and server loss', () => {
  test('kit.close while a stdio client is still connecting cancels the connect and reaps the child', async () => {
    const client = kit.direct(fixture());
    const connecting = rejection(client.connect());
    while (!client.trace.events.some((e) => e.kind === 'process.started')) await new Promise((r) => setTimeout(r, 2));
    const pid = client.trace.events.find((e) => e.kind === 'process.started')!.payload.pid as number;
    await kit.close();
    const error = await connecting;
    expect(error).toBeInstanceOf(OperationCancelled);
    expect(error.message).toMatch(/cancelled/);
    expect(pidAlive(pid)).toBe(false);
    expect(client.result?.snapshot.outcome).toBe('cancelled');
  });

  test('an HTTP server that goes away between calls gives a TransportError naming the endpoint', async () => {
    const { child, url } = await spawnExampleHttp();
    try {
      const client = await kit.direct(new HTTPServer({ name: 'vanishing', url }), { timeoutMs: 5_000 }).connect();
      await client.ping();
      child.kill('SIGKILL');
      await new Promise((resolve) => child.once('exit', resolve));
      const error = await rejection(client.callTool('process_id'));
      expect(error).toBeInstanceOf(TransportError);
      expect(error.message).toMatch(/^HTTP MCP endpoint http:\/\/127\.0\.0\.1:\d+\/mcp stopped answering/);
      await client.close();
      expect(client.result?.snapshot.outcome).toBe('failed');
      expect(client.result?.error?.code).toBe('transport_error');
    } finally {
      child.kill('SIGKILL');
    }
  });
});

describe('a malformed server response (hand-written stdio fixture)', () => {
  const malformed = new StdioServer({ name: 'malformed', command: process.execPath, args: [MALFORMED_FIXTURE] });

  test('results of the wrong shape are ProtocolErrors naming the operation and the paths, not the values', async () => {
    const client = await kit.direct(malformed, { timeoutMs: 5_000 }).connect();
    expect(client.initialization?.serverInfo.name).toBe('malformed-fixture');
    const cases: Array<[() => Promise<unknown>, string, string[]]> = [
      [() => client.listTools(), 'tools/list', ['tools']],
      [() => client.readResource('memory://x'), 'resources/read', ['contents.0']],
      [() => client.callTool('anything'), 'tools/call', ['content', 'isError']],
    ];
    for (const [call, operation, paths] of cases) {
      const error = await rejection(call());
      expect(error).toBeInstanceOf(ProtocolError);
      expect(error.message).toBe(
        `MCP protocol operation failed: ${operation}: the server sent a malformed response that does not match the MCP result schema`,
      );
      expect((error as ProtocolError).details).toEqual({ operation, errorKind: 'malformed_response', paths });
      expect(error.message).not.toContain('not-a-list');
    }
    await client.close();
    expect(client.result?.snapshot.outcome).toBe('failed');
    expect(client.result?.error?.code).toBe('protocol_error');
    const started = client.finalTrace!.events.find((e) => e.kind === 'process.started');
    expect(await waitForExit(started!.payload.pid as number)).toBe(true);
  });

  test('a frame that is not JSON is recorded as a diagnostic quoting the line; the call ends at its timeout', async () => {
    const client = await kit.direct(malformed).connect();
    const error = await rejection(client.callTool('not_json', {}, { timeoutMs: 300 }));
    expect(error).toBeInstanceOf(OperationTimeout);
    expect(error.message).toMatch(/^tools\/call timed out after 300 ms/);
    await client.ping();
    await client.close();
    const diagnostics = client.finalTrace!.events.filter((e) => e.kind === 'diagnostic').map((e) => e.payload);
    expect(diagnostics).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ code: 'non_json_output', line: 'this is not json {', lineBytes: 19 }),
      ]),
    );
  });
});
