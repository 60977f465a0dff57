import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { currentPidSpace, describeRunProcess, isRunProcessGone, runProcessOf } from './runProcess';

const onLinux = process.platform === 'linux' ? it : it.skip;

describe('the processes that own a run', () => {
  it('describes this process: its host, pid space, pid and start time', () => {
    const self = runProcessOf('jest');
    expect(self).toMatchObject({ role: 'jest', pid: process.pid, pidSpace: currentPidSpace() });
    expect(describeRunProcess(self)).toBe(`jest (pid ${process.pid} on ${self.host})`);
    expect(isRunProcessGone(self)).toBe(false);
  });

  it('a killed and reaped process is gone; while it runs it is not', async () => {
    const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    await once(child, 'spawn');
    const owner = runProcessOf('jest', child.pid!);
    expect(isRunProcessGone(owner)).toBe(false);
    child.kill('SIGKILL');
    await once(child, 'exit');
    expect(isRunProcessGone(owner)).toBe(true);
  });

  onLinux('a zombie (killed, not yet reaped) is gone', async () => {
    // The shell forks a child it never waits for: once killed, the child stays a zombie.
    const shell = spawn('sh', ['-c', 'sleep 30 & echo $!; exec sleep 30'], { stdio: ['ignore', 'pipe', 'ignore'] });
    const [line] = (await once(shell.stdout!, 'data')) as [Buffer];
    const owner = runProcessOf('jest', Number(line.toString().trim()));
    expect(isRunProcessGone(owner)).toBe(false);
    process.kill(owner.pid, 'SIGKILL');
    try {
      // The kernel turns it into a zombie asynchronously; poll its state until it is one.
      const deadline = process.hrtime.bigint() + 10_000_000_000n;
      while (!isRunProcessGone(owner) && process.hrtime.bigint() < deadline) await new Promise((r) => setImmediate(r));
      expect(isRunProcessGone(owner)).toBe(true);
    } finally {
      shell.kill('SIGKILL');
    }
  });

  onLinux('a pid now held by another process (another start time) is gone', () => {
    const self = runProcessOf('jest');
    expect(self.startTicks).not.toBeNull();
    expect(isRunProcessGone({ ...self, startTicks: self.startTicks! - 1 })).toBe(true);
  });

  it('a process in another pid space (another machine or container) is never taken for gone', () => {
    const elsewhere = { ...runProcessOf('jest'), pidSpace: 'another-boot/pid:[4026531836]', pid: 2 ** 22 + 1 };
    expect(isRunProcessGone(elsewhere)).toBe(false);
  });
});
