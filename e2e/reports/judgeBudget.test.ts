// End-to-end: `m3 test --judge-max-requests N -- --maxWorkers=2` on a project whose two test files
// (one per Jest worker) each ask a fake judge three questions. The cap holds for the whole run:
// exactly N requests reach the fake models between both workers, the rest are `error`
// evaluations with code judge_budget_exhausted, and they lower the evaluator's pass rate.
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { copyFixture, ensureBuilt, removeFixture, runM3Async, withStore } from '../cli.testkit';

jest.setTimeout(240_000);

interface Counted {
  file: number;
  worker: string;
  pid: number;
  requests: number;
}

describe('the judge budget across two Jest workers', () => {
  let folder: string;
  let counts: string;
  beforeAll(() => {
    ensureBuilt();
    folder = copyFixture('reports-judge-budget');
    counts = mkdtempSync(join(tmpdir(), 'm3-judge-counts-'));
  });
  afterAll(() => {
    removeFixture(folder);
    rmSync(counts, { recursive: true, force: true });
  });

  function counted(): Counted[] {
    return readdirSync(counts)
      .sort()
      .map((file) => JSON.parse(readFileSync(join(counts, file), 'utf8')) as Counted);
  }

  test('--judge-max-requests 4: four requests sent in all, two error evaluations judge_budget_exhausted', async () => {
    const run = await runM3Async(['test', '--judge-max-requests', '4', '--json', '--', '--maxWorkers=2'], folder, {
      JUDGE_COUNT_DIR: counts,
    });
    expect(run.status).toBe(0);
    const perFile = counted();
    // Two workers in two processes really ran the files.
    expect(new Set(perFile.map((c) => c.pid)).size).toBe(2);
    expect(perFile.reduce((sum, c) => sum + c.requests, 0)).toBe(4);

    const summary = JSON.parse(run.stdout) as {
      runId: string;
      evaluations: Record<string, unknown>[];
      judgeBudget: unknown;
    };
    // The summary's budget line: the store's counter against the cap.
    expect(summary.judgeBudget).toEqual({ limit: 4, used: 4, refused: 2 });
    expect(summary.evaluations.find((e) => e.evaluator === 'answer.v1')).toMatchObject({
      passed: 4,
      expected: 6,
      passRate: 0.6667,
      statusCounts: { passed: 4, error: 2 },
    });
    const evaluations = await withStore(folder, (store) => store.listEvaluations({ runId: summary.runId }));
    const spent = evaluations.filter((e) => e.status === 'error');
    expect(spent).toHaveLength(2);
    for (const e of spent) {
      expect(e.metrics.errorCode).toBe('judge_budget_exhausted');
      expect(e.rationale).toContain('--judge-max-requests 4');
    }
  });

  test('a value that is not a whole number is a usage error naming the flag, before Jest starts', async () => {
    const bad = await runM3Async(['test', '--judge-max-requests', 'lots'], folder);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain(
      'm3: --judge-max-requests: must be a whole number of judge requests (0 or more), not "lots"',
    );
  });
});
