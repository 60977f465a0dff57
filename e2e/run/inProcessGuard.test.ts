// The unit project's guard (inProcessGuard.js): while a unit test file runs, starting a child
// process throws an error naming the file and the fix, and the attempt is remembered even when
// the test caught the error. Nothing here starts a process: the guard throws before any would.
import childProcess from 'node:child_process';

const { guardChildProcesses, STARTERS } = require('./inProcessGuard') as {
  guardChildProcesses(testPath: string): { release(): Error | null };
  STARTERS: readonly (keyof typeof childProcess)[];
};

describe('guardChildProcesses', () => {
  it('makes every way of starting a process throw, naming the file and the fix, until released', () => {
    const before = STARTERS.map((name) => childProcess[name]);
    const guard = guardChildProcesses('/repo/packages/x/a.test.ts');
    try {
      for (const name of STARTERS) {
        const start = childProcess[name] as (command: string) => unknown;
        expect(() => start('node')).toThrow(
          `/repo/packages/x/a.test.ts starts a child process (child_process.${name}("node")), but the unit project ` +
            '(npm run test:quick) runs in-process tests only: list the file in e2e/run/processTests.js',
        );
      }
    } finally {
      const attempt = guard.release();
      expect(attempt?.message).toContain('child_process.spawn("node")');
    }
    expect(STARTERS.map((name) => childProcess[name])).toEqual(before);
  });

  it('reports no attempt for a file that started nothing', () => {
    expect(guardChildProcesses('/repo/b.test.ts').release()).toBeNull();
  });
});
