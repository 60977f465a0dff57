import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SQLiteExecutionStore } from './SQLiteExecutionStore';

// Child processes load the TypeScript sources through __fixtures__/registerTypeScript.js.
const WRITER = join(__dirname, '__fixtures__', 'storeWriter.js');
const root = mkdtempSync(join(tmpdir(), 'm3-sqlite-concurrency-'));

interface Finished {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Writer children not yet exited: a failed test must not leave an endless writer behind. */
const running = new Set<ChildProcess>();
afterEach(() => {
  for (const child of running) child.kill('SIGKILL');
});

/** A writer child; `committed(n)` resolves once it has printed `n` lines (rejects if it exits first). */
function writer(args: string[]): {
  child: ChildProcess;
  done: Promise<Finished>;
  committed: (count: number) => Promise<void>;
} {
  const child = spawn(process.execPath, [WRITER, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  running.add(child);
  child.on('exit', () => running.delete(child));
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const done = new Promise<Finished>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })),
  );
  const lineCount = () => stdout.split('\n').length - 1;
  const committed = (count: number) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (lineCount() < count) return;
        child.stdout!.off('data', check);
        resolve();
      };
      child.stdout!.on('data', check);
      void done.then(() => reject(new Error(`writer exited after ${lineCount()} lines: ${stderr}`)));
      check();
    });
  return { child, done, committed };
}

describe('SQLiteExecutionStore across processes', () => {
  jest.setTimeout(120_000);

  it('keeps every row when four processes write 5 000 evaluations each into one file', async () => {
    const path = join(root, 'four-writers', 'executions.sqlite');
    const writers = [0, 1, 2, 3].map((w) => writer(['evaluations', path, String(w), '5000']));
    const results = await Promise.all(writers.map((w) => w.done));
    for (const result of results) {
      expect(result.stderr).toBe('');
      expect(result).toMatchObject({ code: 0, stdout: 'done 5000\n' });
    }
    const store = new SQLiteExecutionStore(path);
    const report = await store.aggregateEvaluations({
      filters: { evaluator: ['concurrency.v1'] },
      groupBy: ['metadata.worker'],
    });
    expect(report.totals.evaluationCount).toBe(20_000);
    expect(report.groups.map((g) => [g.key['metadata.worker'], g.values.evaluationCount])).toEqual([
      ['0', 5000],
      ['1', 5000],
      ['2', 5000],
      ['3', 5000],
    ]);
    expect((await store.listEvaluations({ runId: 'run-concurrency' })).length).toBe(20_000);
    await store.close();
  });

  it('survives kill -9 mid-write: the file opens and holds every committed execution, whole', async () => {
    const path = join(root, 'killed', 'executions.sqlite');
    const victim = writer(['executions', path, '7']);
    const companion = writer(['executions', path, '8']);
    await victim.committed(25);
    victim.child.kill('SIGKILL');
    companion.child.kill('SIGKILL');
    const killed = await victim.done;
    await companion.done;
    expect(killed.signal).toBe('SIGKILL');
    const committed = killed.stdout
      .split('\n')
      .filter((line) => line.startsWith('committed '))
      .map((line) => line.slice('committed '.length));
    expect(committed.length).toBeGreaterThanOrEqual(25);

    const store = new SQLiteExecutionStore(path);
    for (const executionId of committed) {
      const trace = await store.getTrace(executionId);
      expect(trace.events).toHaveLength(22);
      expect(trace.finalized).toBe(true);
    }
    // Nothing is visible as finished without its whole trace.
    const executions = await store.listExecutions({ runId: 'run-concurrency' });
    for (const execution of executions.filter((e) => e.outcome !== null)) {
      expect((await store.getTrace(execution.executionId)).events).toHaveLength(22);
    }
    // The file stays writable after the crash.
    await store.registerSuite('after-crash');
    await store.close();
  });
});
