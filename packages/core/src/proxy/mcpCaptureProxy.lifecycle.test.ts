// Start, EOF, SIGTERM and a dying server: ordering of relayed bytes, capture records and exit.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildProxyCommand, captureProxyScriptPath } from './buildProxyCommand';
import { rpc, startProxy, stopAllProxies } from './captureProxy.testkit';

afterEach(stopAllProxies);

describe('capture proxy lifecycle', () => {
  test('deletes its 0600 config at start and creates the capture file 0600', async () => {
    const proxy = await startProxy();
    expect(statSync(proxy.configPath).mode & 0o777).toBe(0o600);
    proxy.child.stdin.write(rpc(1, 'echo'));
    await proxy.waitForLines(1);
    expect(existsSync(proxy.configPath)).toBe(false);
    expect(statSync(proxy.capturePath).mode & 0o777).toBe(0o600);
    proxy.child.stdin.end();
    await proxy.exited;
  });

  test('refuses a config that is not 0600 (exit 78) and deletes it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sf-m3-proxy-'));
    const path = join(dir, 'config.json');
    writeFileSync(path, '{}', { mode: 0o644 });
    const { command, args } = buildProxyCommand(path);
    const run = spawnSync(command, args, { encoding: 'utf8' });
    expect(run.status).toBe(78);
    expect(run.stderr).toContain('mode 0600');
    expect(existsSync(path)).toBe(false);
  });

  test('refuses a missing config with exit 78', () => {
    const run = spawnSync(process.execPath, [captureProxyScriptPath, join(tmpdir(), 'no-such-sf-m3-config.json')], {
      encoding: 'utf8',
    });
    expect(run.status).toBe(78);
    // It says why a config can be gone: a client that starts the same command twice.
    expect(run.stderr).toContain('it is one-shot, so a second start of this command finds it gone');
  });

  test("an answer reaches the client only once its record and its request's are in the capture file", async () => {
    const proxy = await startProxy();
    const unrecorded: string[] = [];
    proxy.child.stdout.on('data', () => {
      // Read at once, in the handler: whatever the client holds must already be in the file.
      const records = readFileSync(proxy.capturePath, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as { direction?: string; messages?: { id?: unknown }[] });
      const recorded = (direction: string) =>
        new Set(records.filter((r) => r.direction === direction).flatMap((r) => r.messages!.map((m) => m.id)));
      const requests = recorded('client_to_server');
      const answers = recorded('server_to_client');
      const answered = proxy.lines().map((l) => JSON.parse(l) as { id?: number });
      // (The server's goodbye notification after EOF has no id.)
      for (const { id } of answered.filter((m) => m.id !== undefined)) {
        if (!requests.has(id)) unrecorded.push(`request ${id}`);
        if (!answers.has(id)) unrecorded.push(`answer ${id}`);
      }
    });
    for (let id = 1; id <= 40; id += 1) {
      proxy.child.stdin.write(rpc(id, 'echo', { id }));
      await proxy.waitForLines(id);
    }
    proxy.child.stdin.end();
    expect((await proxy.exited).code).toBe(0);
    expect(unrecorded).toEqual([]);
  });

  test('EOF: server stdin closes, its last output is relayed and recorded, then the proxy exits with its code', async () => {
    const proxy = await startProxy({ fixtureEnv: { FIXTURE_EXIT_CODE: '7' } });
    proxy.child.stdin.write(rpc(1, 'echo'));
    await proxy.waitForLines(1);
    proxy.child.stdin.end();
    expect(await proxy.exited).toEqual({ code: 7, signal: null });
    // The server wrote its goodbye after seeing EOF; it still reached the client.
    expect(JSON.parse(proxy.lines()[1]).method).toBe('notifications/goodbye');
    const capture = await proxy.capture();
    const types = capture.records.map((r) => r.type);
    expect(types).toEqual(['start', 'frame', 'frame', 'frame', 'exit', 'end']);
    expect(capture.exit).toMatchObject({ reason: 'client_eof', code: 7, signal: null, inFlight: [] });
    expect(capture.end).toMatchObject({ exitCode: 7 });
    expect(capture.tornTail).toBe(false);
    expect(capture.records.map((r) => r.seq)).toEqual([0, 1, 2, 3, 4, 5]);
  });

  test('EOF: a server that keeps running after its stdin closed is stopped after the grace period', async () => {
    const proxy = await startProxy({ eofGraceMs: 300, fixtureEnv: { FIXTURE_IGNORE_EOF: '1' } });
    // One round trip first, so the server has installed its handlers before the grace period runs
    // (on a loaded machine a slow start would otherwise meet SIGTERM's default action).
    proxy.child.stdin.write(rpc(1, 'echo'));
    await proxy.waitForLines(1);
    proxy.child.stdin.end();
    expect(await proxy.exited).toEqual({ code: 0, signal: null });
    expect(proxy.serverLog().map((e) => e.event)).toEqual(['line', 'eof-ignored', 'sigterm']);
    const capture = await proxy.capture();
    expect(capture.exit).toMatchObject({ reason: 'client_eof', stopSignal: 'SIGTERM', code: 0 });
  });

  test('SIGTERM: forwarded to the server group, its last frame relayed and recorded, records flushed before exit', async () => {
    const proxy = await startProxy();
    proxy.child.stdin.write(rpc(1, 'echo'));
    await proxy.waitForLines(1);
    const stdoutEnded = new Promise((resolve) => proxy.child.stdout.once('end', resolve));
    proxy.child.kill('SIGTERM');
    const exit = await proxy.exited;
    expect(exit).toEqual({ code: 143, signal: null });
    // What the server said on its way out reached the client before the proxy exited.
    await stdoutEnded;
    expect(JSON.parse(proxy.lines().at(-1)!)).toEqual({ jsonrpc: '2.0', method: 'notifications/terminated' });
    expect(proxy.serverLog().map((e) => e.event)).toEqual(['line', 'sigterm']);
    const capture = await proxy.capture();
    expect(capture.frames.at(-1)?.messages).toEqual([{ kind: 'notification', method: 'notifications/terminated' }]);
    expect(capture.exit).toMatchObject({ reason: 'signal', stopSignal: 'SIGTERM', code: 0 });
    expect(capture.end).toMatchObject({ exitCode: 143 });
    const start = capture.start!;
    // The server ran in its own process group, which is gone now.
    expect(() => process.kill(-start.pid!, 0)).toThrow();
  });

  test('a server dying mid-call: exit recorded with the unanswered call and redacted stderr, stdout closed, non-zero exit', async () => {
    const proxy = await startProxy({
      fixtureEnv: { FIXTURE_SECRET: 'do-not-leak-1234' },
      canaries: ['do-not-leak-1234'],
    });
    proxy.child.stdin.write(rpc(1, 'echo'));
    await proxy.waitForLines(1);
    const stdoutClosed = new Promise((resolve) => proxy.child.stdout.on('end', resolve));
    proxy.child.stdin.write(rpc(2, 'die'));
    expect((await proxy.exited).code).toBe(3);
    await stdoutClosed;
    const capture = await proxy.capture();
    expect(capture.exit).toMatchObject({ reason: 'server_exit', code: 3, inFlight: [{ id: 2, method: 'die' }] });
    expect(capture.exit?.stderrTail).toBe('dying with secret [REDACTED]\n');
    expect(capture.end?.exitCode).toBe(3);
  });

  test('a server exiting 0 with a call unanswered still makes the proxy exit non-zero', async () => {
    const proxy = await startProxy({ fixtureEnv: { FIXTURE_DIE_CODE: '0' } });
    proxy.child.stdin.write(rpc('call-1', 'die'));
    expect((await proxy.exited).code).toBe(1);
    const capture = await proxy.capture();
    expect(capture.exit).toMatchObject({ reason: 'server_exit', code: 0, inFlight: [{ id: 'call-1', method: 'die' }] });
  });

  // /dev/full accepts the open and fails every write with ENOSPC, like a full disk.
  (existsSync('/dev/full') ? test : test.skip)(
    'a capture file that cannot be written: the relay goes on and says so once on stderr',
    async () => {
      const proxy = await startProxy({ capturePath: '/dev/full' });
      let stderr = '';
      proxy.child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      proxy.child.stdin.write(rpc(1, 'echo', { a: 1 }));
      proxy.child.stdin.write(rpc(2, 'echo', { a: 2 }));
      const lines = await proxy.waitForLines(2);
      expect(lines.map((l) => JSON.parse(l).result.params.a)).toEqual([1, 2]);
      proxy.child.stdin.end();
      expect((await proxy.exited).code).toBe(0);
      expect(stderr.match(/the capture file could not be written; wire evidence is incomplete/g)).toHaveLength(1);
    },
  );

  test('a server command that cannot start is recorded and the proxy exits 127', async () => {
    const proxy = await startProxy({ command: '/nonexistent/sf-m3-server', args: [] });
    expect((await proxy.exited).code).toBe(127);
    const capture = await proxy.capture();
    expect(capture.records.map((r) => r.type)).toEqual(['start', 'spawn_error', 'end']);
  });
});
