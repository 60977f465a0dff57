import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SQLiteExecutionStore } from '@sf-m3/store-sqlite';
import type { CliIO } from '../CliIO';
import { seedRun } from '../summary/runFixtures.testkit';
import { runReportCommand } from './report';

describe('m3 report --baseline latest', () => {
  let cwd: string;
  let out: string;
  let io: CliIO;
  const runIds: string[] = [];

  beforeAll(async () => {
    cwd = mkdtempSync(join(tmpdir(), 'm3-report-'));
    const store = new SQLiteExecutionStore(join(cwd, 'results.sqlite'));
    for (const outcome of ['passed', 'failed', 'passed'] as const) {
      runIds.push(await seedRun(store, [{ suite: 'shipping', fullName: 'shipping local', outcome }]));
    }
    await store.close();
  });
  afterAll(() => rmSync(cwd, { recursive: true, force: true }));
  beforeEach(() => {
    out = '';
    io = { cwd, env: {}, stdout: (text) => (out += text), stderr: (text) => (out += text) };
  });

  async function report(runId?: string): Promise<{ status: number; summary: Record<string, unknown> }> {
    const status = await runReportCommand({ runId, resultsDb: 'results.sqlite', baseline: 'latest', json: true }, io);
    return { status, summary: JSON.parse(out) as Record<string, unknown> };
  }

  test('compares a run with the newest run that started before it', async () => {
    const { status, summary } = await report(runIds[1]);
    expect(status).toBe(1);
    expect(summary).toMatchObject({ runId: runIds[1], baseline: { baselineRunId: runIds[0] }, baselineNote: null });
  });

  test('without RUN_ID reports the newest run against the one before it', async () => {
    const { status, summary } = await report();
    expect(status).toBe(0);
    expect(summary).toMatchObject({ runId: runIds[2], baseline: { baselineRunId: runIds[1] } });
  });

  test('the oldest run has no baseline and says so', async () => {
    const { summary } = await report(runIds[0]);
    expect(summary).toMatchObject({ baseline: null, baselineNote: 'no earlier run to compare with' });
  });
});

describe('m3 report: rates in --json and feedback.json are rounded', () => {
  let cwd: string;
  beforeAll(() => {
    cwd = mkdtempSync(join(tmpdir(), 'm3-report-rates-'));
  });
  afterAll(() => rmSync(cwd, { recursive: true, force: true }));

  test('a 5/5 → 4/5 fall prints delta -0.2, not -0.19999999999999996; the store keeps its numbers', async () => {
    const store = new SQLiteExecutionStore(join(cwd, 'results.sqlite'));
    const evaluations = (failed: number) =>
      [0, 1, 2, 3, 4].map(
        (i) => ({ evaluator: 'project.answer.v1', status: i < failed ? 'failed' : 'passed' }) as const,
      );
    const before = await seedRun(store, [
      { suite: 's', fullName: 's a', outcome: 'passed', evaluations: evaluations(0) },
    ]);
    const after = await seedRun(store, [
      { suite: 's', fullName: 's a', outcome: 'passed', evaluations: evaluations(1) },
    ]);
    const stored = await store.aggregateEvaluations({ filters: { runId: [after] }, groupBy: ['evaluator'] });
    await store.close();
    // The noise is real in the stored figures: 4/5 − 5/5 in floating point, and a long Wilson bound.
    expect(stored.groups[0]!.values.passRate! - 1).toBe(-0.19999999999999996);
    expect(String(stored.groups[0]!.values.passRateInterval![0]).length).toBeGreaterThan(8);

    let out = '';
    const io: CliIO = { cwd, env: {}, stdout: (text) => (out += text), stderr: (text) => (out += text) };
    expect(
      await runReportCommand({ runId: after, resultsDb: 'results.sqlite', baseline: before, json: true }, io),
    ).toBe(0);
    const feedbackText = readFileSync(join(cwd, '.m3', 'reports', after, 'feedback.json'), 'utf8');
    for (const text of [out, feedbackText]) {
      expect(text).not.toMatch(/\d\.\d{5,}/);
      expect(text).toContain('-0.2');
    }
    const summary = JSON.parse(out) as {
      evaluations: Array<{ interval: number[] }>;
      baseline: { evaluators: unknown[] };
    };
    expect(summary.baseline.evaluators).toEqual([
      {
        evaluator: 'project.answer.v1',
        scope: 'evaluator',
        suiteName: null,
        caseId: null,
        harness: null,
        model: null,
        baselinePassRate: 1,
        currentPassRate: 0.8,
        delta: -0.2,
        baseline: { passRate: 1, passed: 5, expected: 5 },
        current: { passRate: 0.8, passed: 4, expected: 5 },
        pValue: 1,
        significance: 'within noise',
      },
    ]);
    expect(summary.evaluations[0]!.interval).toEqual([0.3755, 0.9638]);
  });
});
