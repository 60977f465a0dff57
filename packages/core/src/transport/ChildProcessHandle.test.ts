import { spawn } from 'node:child_process';
import { Redactor } from '../redaction/Redactor';
import { TraceRecorder } from '../trace/TraceRecorder';
import { ChildProcessHandle } from './ChildProcessHandle';
import { descendantsOf, isAlive } from './processTree';

function recorder(redactor = new Redactor()): TraceRecorder {
  const r = new TraceRecorder({ executionId: 'exec-0123456789abcdef0123456789abcdef', redactor });
  r.record('execution.created', { payload: {} });
  return r;
}

describe('ChildProcessHandle', () => {
  it('reaps by pid alone when the ChildProcess object is not available', async () => {
    const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    const pid = child.pid as number;
    const trace = recorder();
    // No `child` given: the handle must poll the pid to notice the exit.
    const handle = new ChildProcessHandle({
      pid,
      executable: 'node',
      redactor: new Redactor(),
      recorder: trace,
      server: 's',
      connectionId: 'c',
      graceMs: 500,
    });
    await handle.reap();
    expect(isAlive(pid)).toBe(false);
    expect(await handle.exited).toEqual({ code: null, signal: null });
    const exited = trace.events.at(-1)!;
    expect(exited.kind).toBe('process.exited');
    expect(exited.payload).toEqual({ executable: 'node', pid, exitCode: null, signal: null, stderr: null });
  });

  it('records the exit of a child that ends by itself, with its redacted stderr', async () => {
    const redactor = new Redactor(['child-canary-1234']);
    const child = spawn(
      process.execPath,
      ['-e', "process.stderr.write('oops child-canary-1234\\n'); process.exit(2)"],
      {
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    const trace = recorder(redactor);
    const handle = new ChildProcessHandle({
      pid: child.pid as number,
      child,
      stderr: child.stderr,
      executable: 'node',
      redactor,
      recorder: trace,
      server: 's',
      connectionId: 'c',
    });
    expect(await handle.exited).toEqual({ code: 2, signal: null });
    expect(handle.hasExited).toBe(true);
    expect(handle.stderr()).toBe('oops [REDACTED]\n');
    const exited = trace.events.at(-1)!;
    expect(exited.payload).toMatchObject({ exitCode: 2, stderr: { preview: 'oops [REDACTED]\n', redacted: true } });
    await handle.reap(); // nothing left to do
  });

  it('finds descendants through the process table', async () => {
    // The child says `ready` once its own child runs (its stdout is piped up through the child).
    const grandchild = "process.stdout.write('ready'); setInterval(() => {}, 1000)";
    const child = spawn(
      process.execPath,
      [
        '-e',
        `const g = require('child_process').spawn(process.execPath, ['-e', ${JSON.stringify(grandchild)}], { stdio: ['ignore', 'pipe', 'ignore'] }); g.stdout.once('data', () => process.stdout.write('ready')); setInterval(() => {}, 1000)`,
      ],
      { stdio: ['ignore', 'pipe', 'ignore'] },
    );
    const pid = child.pid as number;
    await new Promise((resolve) => child.stdout.once('data', resolve));
    const found = descendantsOf(pid);
    expect(found).toHaveLength(1);
    const handle = new ChildProcessHandle({
      pid,
      child,
      executable: 'node',
      redactor: new Redactor(),
      recorder: recorder(),
      server: 's',
      connectionId: 'c',
      graceMs: 500,
    });
    await handle.reap();
    expect(isAlive(pid)).toBe(false);
    expect(isAlive(found[0]!)).toBe(false);
  });

  it('with processGroup, reaps a group member it never saw as a descendant (orphaned before any look)', async () => {
    // The leader starts a SIGTERM-proof grandchild, prints its pid and exits: the grandchild is
    // reparented (no longer a descendant) but stays in the leader's process group.
    const code =
      "const g = require('child_process').spawn(process.execPath, ['-e', \"process.on('SIGTERM', () => {}); setInterval(() => {}, 1000); process.stdout.write('ready')\"], { stdio: ['ignore', 'pipe', 'ignore'] });" +
      "g.stdout.once('data', () => { process.stdout.write(String(g.pid)); process.exit(0); });";
    const child = spawn(process.execPath, ['-e', code], { detached: true, stdio: ['ignore', 'pipe', 'ignore'] });
    const grandchild = await new Promise<number>((resolve) =>
      child.stdout.once('data', (d) => resolve(Number(String(d)))),
    );
    const trace = recorder();
    const handle = new ChildProcessHandle({
      pid: child.pid as number,
      child,
      executable: 'node',
      redactor: new Redactor(),
      recorder: trace,
      scope: () => ({ sessionId: 'session-1' }),
      processGroup: true,
      graceMs: 300,
    });
    await handle.exited;
    expect(descendantsOf(child.pid as number)).toEqual([]);
    expect(isAlive(grandchild)).toBe(true);
    await handle.reap();
    expect(isAlive(grandchild)).toBe(false);
    expect(handle.exit).toEqual({ code: 0, signal: null });
    const exited = trace.events.find((e) => e.kind === 'process.exited')!;
    expect(exited).toMatchObject({ sessionId: 'session-1' });
    expect(exited.server).toBeUndefined();
  });
});
