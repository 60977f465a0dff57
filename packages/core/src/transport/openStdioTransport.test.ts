import { join } from 'node:path';
import { ModelValidationError, TransportStartupError } from '../errors';
import { Redactor } from '../redaction/Redactor';
import { secretFromEnv } from '../redaction/SecretRef';
import { StdioServer } from '../servers/StdioServer';
import { TraceRecorder } from '../trace/TraceRecorder';
import { openTransport, type OpenedTransport } from './openTransport';
import { isAlive } from './processTree';
import { CONNECTION, echoThroughEverything, EVERYTHING_ENTRY, setupRecorder } from './transportTest.testkit';

const FIXTURES = join(__dirname, '__fixtures__');

const opened: OpenedTransport[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((o) => o.reap().catch(() => undefined)));
});

async function open(server: StdioServer, recorder: TraceRecorder, redactor: Redactor): Promise<OpenedTransport> {
  const result = await openTransport(server, { redactor, recorder, connectionId: CONNECTION });
  opened.push(result);
  return result;
}

/**
 * Waits until `condition` holds, however long a loaded machine takes to start the child; the
 * test's own timeout is the only limit (the handle has no stderr event to wait on, so it polls).
 */
async function waitFor(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((r) => setTimeout(r, 20));
}

describe('openTransport (stdio)', () => {
  beforeAll(() => {
    process.env.M3_TEST_STDIO_SECRET = 'stdio-secret-value-42';
    process.env.M3_FIXTURE_PARENT_ONLY = 'parent-env-leak';
  });
  afterAll(() => {
    delete process.env.M3_TEST_STDIO_SECRET;
    delete process.env.M3_FIXTURE_PARENT_ONLY;
  });

  it('spawns the child, captures redacted stderr, records start and exit, and reaps it', async () => {
    const { recorder, redactor } = setupRecorder();
    const server = new StdioServer({
      name: 'noisy',
      command: process.execPath,
      args: [join(FIXTURES, 'noisyChild.js'), '--flag-that-must-not-leak'],
      env: { M3_FIXTURE_SECRET: secretFromEnv('M3_TEST_STDIO_SECRET'), M3_FIXTURE_EXIT_CODE: '3' },
    });
    const result = await open(server, recorder, redactor);
    expect(result.kind).toBe('stdio');
    const pid = result.process!.pid;
    expect(isAlive(pid)).toBe(true);
    await waitFor(() => result.process!.stderr().includes('leaked='));
    const stderr = result.process!.stderr();
    expect(stderr).toContain('line 0 secret=[REDACTED]');
    expect(stderr).not.toContain('stdio-secret-value-42');
    // Only the minimal environment and the given env reach the child.
    expect(stderr).toContain('home=set leaked=no');

    await result.transport.close();
    await result.reap();
    expect(isAlive(pid)).toBe(false);
    expect(await result.process!.exited).toEqual({ code: 3, signal: null });

    const kinds = recorder.events.map((e) => e.kind);
    expect(kinds).toEqual(['execution.created', 'process.started', 'transport.connected', 'process.exited']);
    const started = recorder.events[1]!;
    expect(started.payload).toEqual({ executable: 'node', pid });
    expect(started).toMatchObject({ server: 'noisy', connectionId: CONNECTION, phase: 'startup' });
    const exited = recorder.events[3]!;
    expect(exited.payload).toMatchObject({ executable: 'node', pid, exitCode: 3, signal: null });
    const capture = exited.payload.stderr as Record<string, unknown>;
    expect(capture.preview).toContain('secret=[REDACTED]');
    expect(capture.redacted).toBe(true);
    expect(exited.rawEvidence?.mediaType).toBe('text/plain; charset=utf-8');
    const all = JSON.stringify(recorder.events) + recorder.evidence.map((b) => b.bytes.toString()).join('');
    expect(all).not.toContain('stdio-secret-value-42');
    expect(all).not.toContain('--flag-that-must-not-leak');
    expect(all).not.toContain(FIXTURES);
  });

  it('keeps only the last 64 KiB of stderr', async () => {
    const { recorder, redactor } = setupRecorder();
    const server = new StdioServer({
      name: 'loud',
      command: process.execPath,
      args: [join(FIXTURES, 'noisyChild.js')],
      env: { M3_FIXTURE_LINES: '300', M3_FIXTURE_PAD: '1000' },
    });
    const result = await open(server, recorder, redactor);
    await waitFor(() => result.process!.stderr().includes('leaked='));
    const stderr = result.process!.stderr();
    expect(Buffer.byteLength(stderr)).toBeLessThanOrEqual(64 * 1024);
    expect(stderr.startsWith('line ')).toBe(true);
    expect(stderr).not.toContain('line 0 ');
    await result.reap();
    const exited = recorder.events.find((e) => e.kind === 'process.exited')!;
    const capture = exited.payload.stderr as Record<string, unknown>;
    expect(capture.truncated).toBe(true);
    expect(capture.sizeBytes).toBeGreaterThan(300 * 1000);
  });

  it('reaps a child that ignores SIGTERM with SIGKILL after the grace period', async () => {
    const { recorder, redactor } = setupRecorder();
    const server = new StdioServer({
      name: 'stubborn',
      command: process.execPath,
      args: [join(FIXTURES, 'stubbornChild.js')],
    });
    const result = await open(server, recorder, redactor);
    const pid = result.process!.pid;
    await waitFor(() => result.process!.stderr().includes('ready'));
    const started = Date.now();
    await result.reap();
    expect(Date.now() - started).toBeGreaterThanOrEqual(1900);
    expect(isAlive(pid)).toBe(false);
    expect(await result.process!.exited).toEqual({ code: null, signal: 'SIGKILL' });
    expect(result.process!.stderr()).toContain('ignoring SIGTERM');
    await result.reap(); // idempotent
  }, 15_000);

  it('reaps grandchildren too, even when they ignore SIGTERM', async () => {
    const { recorder, redactor } = setupRecorder();
    const server = new StdioServer({
      name: 'parent',
      command: process.execPath,
      args: [join(FIXTURES, 'parentOfStubborn.js')],
    });
    const result = await open(server, recorder, redactor);
    await waitFor(() => /grandchild=\d+/.test(result.process!.stderr()));
    const grandchild = Number(/grandchild=(\d+)/.exec(result.process!.stderr())![1]);
    expect(isAlive(grandchild)).toBe(true);
    // The usual order: the client closes the transport (stdin ends, the child exits), then reaps.
    await result.transport.close();
    await result.reap();
    expect(isAlive(result.process!.pid)).toBe(false);
    expect(isAlive(grandchild)).toBe(false);
  }, 15_000);

  it('refuses a missing command without naming the command line', async () => {
    const { recorder, redactor } = setupRecorder();
    const server = new StdioServer({ name: 'ghost', command: 'm3-no-such-command-xyz', args: ['--secret-arg'] });
    const attempt = openTransport(server, { redactor, recorder, connectionId: CONNECTION });
    await expect(attempt).rejects.toThrow(TransportStartupError);
    const error = (await attempt.catch((e: unknown) => e)) as Error;
    expect(error.message).toBe(
      'stdio MCP server startup failed for ghost: the command was not found: check `command` and that it is on PATH',
    );
    expect(error.message).not.toContain('m3-no-such-command-xyz');
    expect(recorder.events.map((e) => e.kind)).toEqual(['execution.created']);
  });

  it('refuses a cwd that does not exist', async () => {
    const { recorder, redactor } = setupRecorder();
    const server = new StdioServer({ name: 'c', command: process.execPath, cwd: '/m3/no/such/dir' });
    await expect(openTransport(server, { redactor, recorder, connectionId: CONNECTION })).rejects.toThrow(
      /startup failed for c: the working directory \/m3\/no\/such\/dir does not exist/,
    );
  });

  it('refuses an unset secret, naming the variable', async () => {
    const { recorder, redactor } = setupRecorder();
    const server = new StdioServer({
      name: 's',
      command: process.execPath,
      env: { T: secretFromEnv('M3_UNSET_VAR_X') },
    });
    const attempt = openTransport(server, { redactor, recorder, connectionId: CONNECTION });
    await expect(attempt).rejects.toThrow(TransportStartupError);
    await expect(attempt).rejects.toThrow(/M3_UNSET_VAR_X is not set/);
  });

  it('refuses a bearer token for a stdio server', async () => {
    const { recorder, redactor } = setupRecorder();
    const server = new StdioServer({ name: 's', command: process.execPath });
    await expect(
      openTransport(server, { redactor, recorder, connectionId: CONNECTION, bearerToken: 'abcd' }),
    ).rejects.toThrow(ModelValidationError);
  });

  it('talks MCP to server-everything through the observed transport', async () => {
    const { recorder, redactor } = setupRecorder();
    const server = new StdioServer({
      name: 'everything',
      command: process.execPath,
      args: [EVERYTHING_ENTRY, 'stdio'],
    });
    const result = await open(server, recorder, redactor);
    const pid = result.process!.pid;
    await echoThroughEverything(result.transport, recorder, 'hello m3');
    await result.reap();
    expect(isAlive(pid)).toBe(false);

    const kinds = recorder.events.map((e) => e.kind);
    expect(kinds.slice(0, 3)).toEqual(['execution.created', 'process.started', 'transport.connected']);
    const call = recorder.events.find((e) => e.kind === 'tool.call_requested')!;
    expect(call.payload).toMatchObject({
      method: 'tools/call',
      params: { name: 'echo', arguments: { message: 'hello m3' } },
    });
    const result2 = recorder.events.find((e) => e.kind === 'tool.result_received')!;
    expect(result2.jsonrpcId).toBe(call.jsonrpcId);
    expect(result2.direction).toBe('server_to_client');
    expect(kinds).toContain('transport.disconnected');
    expect(kinds).toContain('process.exited');
    const disconnected = recorder.events.find((e) => e.kind === 'transport.disconnected')!;
    expect(disconnected.payload).toEqual({
      transport: 'stdio',
      instrumented: 'sdk-transport-wrapper',
      reason: 'closed_by_client',
    });
  }, 20_000);
});
