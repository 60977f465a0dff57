// The judge budget is one counter per run in the file: Jest workers in separate processes that
// reserve at once are granted exactly the limit between them, never more.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SQLiteExecutionStore } from '../SQLiteExecutionStore';

const RESERVER = join(__dirname, '__fixtures__', 'judgeReserver.js');

function reserve(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    // The built core (tsc -b) loads in seconds; transpiling its sources per child takes far longer.
    const env = { ...process.env, SF_M3_CORE_DIST: '1' };
    const child = spawn(process.execPath, [RESERVER, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('reserveJudgeRequest across processes (SQLite)', () => {
  jest.setTimeout(120_000);
  const root = mkdtempSync(join(tmpdir(), 'm3-judge-budget-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('grants exactly the limit to three processes asking 20 times each', async () => {
    const path = join(root, 'executions.sqlite');
    const store = new SQLiteExecutionStore(path);
    await store.open();
    await store.close();
    const results = await Promise.all([0, 1, 2].map(() => reserve([path, 'run-shared', '25', '20'])));
    let granted = 0;
    for (const result of results) {
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      granted += Number(/^granted (\d+)\n$/.exec(result.stdout)?.[1]);
    }
    expect(granted).toBe(25);
    const after = new SQLiteExecutionStore(path);
    try {
      expect(await after.reserveJudgeRequest('run-shared', 25)).toBe(false);
      expect(await after.reserveJudgeRequest('run-shared', 26)).toBe(true);
    } finally {
      await after.close();
    }
  });
});
