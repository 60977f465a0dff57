import { spawn, type ChildProcess } from 'node:child_process';
import { descendantsFromTable, descendantsOf, isAlive } from './processTree';

/**
 * Starts a chain of `depth` Node processes (each the parent of the next); resolves once the last
 * one runs, with the pids of the chain below the first (as the last one reports them).
 */
async function startChain(depth: number): Promise<{ root: ChildProcess; below: number[] }> {
  // Each level starts the next with its stdout piped, then passes the line up with its own pid.
  const level = (n: number): string =>
    n === 1
      ? "process.stdout.write(String(process.pid) + '\\n'); setInterval(() => {}, 1000);"
      : `const c = require('child_process').spawn(process.execPath, ['-e', ${JSON.stringify(level(n - 1))}], { stdio: ['ignore', 'pipe', 'ignore'] });` +
        "c.stdout.once('data', (d) => process.stdout.write(String(process.pid) + ' ' + String(d))); setInterval(() => {}, 1000);";
  const root = spawn(process.execPath, ['-e', level(depth)], { stdio: ['ignore', 'pipe', 'ignore'] });
  const line = await new Promise<string>((resolve) => root.stdout!.once('data', (d) => resolve(String(d))));
  return { root, below: line.trim().split(' ').map(Number).slice(1) };
}

describe('processTree.descendantsOf', () => {
  let chain: { root: ChildProcess; below: number[] };
  beforeAll(async () => {
    chain = await startChain(4);
  });
  afterAll(() => {
    for (const pid of [chain.root.pid as number, ...chain.below]) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  });

  it('finds children, grandchildren and great-grandchildren, nearest first, and nothing else', () => {
    expect(chain.below).toHaveLength(3);
    expect(descendantsOf(chain.root.pid as number)).toEqual(chain.below);
    expect(descendantsOf(chain.below[1]!)).toEqual([chain.below[2]]);
    expect(descendantsOf(chain.below[2]!)).toEqual([]);
  });

  it('agrees with the process-table scan it falls back to', () => {
    expect(descendantsFromTable(chain.root.pid as number)).toEqual(chain.below);
    expect(descendantsOf(process.pid)).toEqual(expect.arrayContaining([chain.root.pid, ...chain.below]));
  });

  it('is empty for a process that is gone', async () => {
    const child = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
    const pid = child.pid as number;
    await new Promise((resolve) => child.once('close', resolve));
    expect(isAlive(pid)).toBe(false);
    expect(descendantsOf(pid)).toEqual([]);
  });
});
