// What close() cleans up when agents misbehave: a connection left open, a proxy killed hard in
// front of a server that ignores EOF, a proxy never started, a torn capture line; and start()
// refusing a cancelled signal or an unset secret.
import { spawn } from 'node:child_process';
import { appendFileSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { OperationCancelled, TransportStartupError } from '../../errors';
import { rpc } from '../../proxy/captureProxy.testkit';
import { CaptureFile } from '../../proxy/CaptureFile';
import { secretFromEnv } from '../../redaction/SecretRef';
import { StdioServer } from '../../servers/StdioServer';
import { isAlive } from '../../transport/processTree';
import type { AgentMcpServerDescriptor, AgentServerGroup, WireCaptureInfo } from './AgentServerGroup';
import { exampleServerBin, setupGroup } from './wire.testkit';

const fixtureServer = join(__dirname, '..', '..', 'proxy', '__fixtures__', 'ndjsonServer.js');
const stdio = (d: AgentMcpServerDescriptor) => d as { command: string; args: string[] };

describe('AgentServerGroup cleanup', () => {
  test('a connection the agent left open: close() stops the proxy and the server', async () => {
    const { group, finish } = setupGroup([
      new StdioServer({ name: 'example', command: process.execPath, args: [exampleServerBin] }),
    ]);
    const [descriptor] = await group.start(new AbortController().signal);
    const client = new Client({ name: 'abandoning-agent', version: '1' });
    await client.connect(new StdioClientTransport({ ...stdio(descriptor!), stderr: 'ignore' }));
    await client.listTools();
    await group.sync();
    const { proxyPid, serverPid } = pidsOf(onlyCapture(group));
    expect([isAlive(proxyPid), isAlive(serverPid)]).toEqual([true, true]);
    await group.close();
    await group.close();
    expect([isAlive(proxyPid), isAlive(serverPid)]).toEqual([false, false]);
    await client.close();
    const trace = finish();
    expect(trace.limitations).not.toContain('cleanup_failed');
    const exited = trace.events.find((e) => e.kind === 'process.exited')!;
    expect(exited.payload).toMatchObject({ reason: 'signal', stopSignal: 'SIGTERM' });
  });

  test('a proxy killed hard in front of a server that ignores EOF: close() reaps the server group', async () => {
    const { group, finish } = setupGroup([
      new StdioServer({
        name: 'stubborn',
        command: process.execPath,
        args: [fixtureServer],
        env: { FIXTURE_IGNORE_EOF: '1' },
      }),
    ]);
    const [descriptor] = await group.start(new AbortController().signal);
    const { command, args } = stdio(descriptor!);
    const proxy = spawn(command, args, { stdio: ['pipe', 'pipe', 'ignore'] });
    const answered = new Promise((resolve) => proxy.stdout.once('data', resolve));
    proxy.stdin.write(rpc(1, 'echo'));
    await answered;
    // The proxy records a server frame before relaying it (and a client frame right after
    // forwarding it), so once the answer arrived both frames are in the capture.
    const { capturePath } = onlyCapture(group);
    expect((await CaptureFile.readAll(capturePath)).frames.length).toBeGreaterThanOrEqual(2);
    proxy.kill('SIGKILL');
    await new Promise((resolve) => proxy.once('exit', resolve));
    await group.sync();
    const { serverPid } = pidsOf(onlyCapture(group));
    expect(isAlive(serverPid)).toBe(true);
    await group.close();
    expect(isAlive(serverPid)).toBe(false);
    const trace = finish();
    expect(trace.limitations).toContain('capture_incomplete');
    expect(trace.limitations).not.toContain('cleanup_failed');
    const codes = trace.events.filter((e) => e.kind === 'diagnostic').map((e) => e.payload.code);
    expect(codes).toContain('capture_incomplete');
    expect(trace.view().protocol.find((p) => p.method.value === 'echo')).toMatchObject({ status: 'completed' });
  });

  test('a proxy the agent never started: close() deletes its one-shot config; a torn capture line is reported', async () => {
    const { group, finish } = setupGroup([
      new StdioServer({ name: 'example', command: process.execPath, args: [exampleServerBin] }),
    ]);
    const [descriptor] = await group.start(new AbortController().signal);
    const configPath = stdio(descriptor!).args[1]!;
    const { capturePath } = onlyCapture(group);
    appendFileSync(capturePath, '{"v":1,"type":"fra');
    expect(existsSync(configPath)).toBe(true);
    await group.close();
    expect(existsSync(dirname(configPath))).toBe(false);
    expect(existsSync(dirname(capturePath))).toBe(false);
    const codes = finish()
      .events.filter((e) => e.kind === 'diagnostic')
      .map((e) => e.payload.code);
    expect(codes).toEqual(['capture_torn_tail']);
  });

  test('start() refuses a cancelled signal and an unset secret, leaving nothing behind', async () => {
    const aborted = new AbortController();
    aborted.abort();
    const first = setupGroup([new StdioServer({ name: 'a', command: process.execPath, args: [exampleServerBin] })]);
    await expect(first.group.start(aborted.signal)).rejects.toThrow(OperationCancelled);
    expect(first.group.captures()).toEqual([]);

    delete process.env.SF_M3_WIRE_UNSET_SECRET;
    const second = setupGroup([
      new StdioServer({ name: 'a', command: process.execPath, args: [exampleServerBin] }),
      new StdioServer({
        name: 'b',
        command: process.execPath,
        args: [exampleServerBin],
        env: { TOKEN: secretFromEnv('SF_M3_WIRE_UNSET_SECRET') },
      }),
    ]);
    const error = await second.group.start(new AbortController().signal).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransportStartupError);
    expect((error as Error).message).toContain('SF_M3_WIRE_UNSET_SECRET');
    expect(second.group.captures()).toEqual([]);
    await second.group.close();
  });
});

/** The one stdio capture of a group with a single server. */
function onlyCapture(group: AgentServerGroup): WireCaptureInfo {
  const captures = group.captures();
  expect(captures).toHaveLength(1);
  return captures[0]!;
}

/** The pids a started proxy reported (server and proxy). */
function pidsOf(capture: WireCaptureInfo): { proxyPid: number; serverPid: number } {
  expect(capture).toEqual(expect.objectContaining({ proxyPid: expect.any(Number), serverPid: expect.any(Number) }));
  return { proxyPid: capture.proxyPid as number, serverPid: capture.serverPid as number };
}
