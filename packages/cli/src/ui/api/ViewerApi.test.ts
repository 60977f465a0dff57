import { type ExecutionStore, InMemoryExecutionStore, Redactor } from '@sf-m3/core';
import { seedWorkedExample } from '../../../../core/src/store/contract/seedWorkedExample';
import { parseOffset } from './executionsPage';
import { parseTrendQuery } from './trendsPage';
import { ViewerApi } from './ViewerApi';
import { ViewerBadRequest, ViewerNotFound } from './ViewerNotFound';

const RUN = 'run-worked-example';

async function seeded(): Promise<{
  store: ExecutionStore;
  api: ViewerApi;
  byConfig: Map<string | null, number | null>;
}> {
  const store = new InMemoryExecutionStore();
  const report = await seedWorkedExample(store);
  await store.saveRun({
    runId: RUN,
    label: null,
    startedAt: '2026-03-02T10:14:00.000Z',
    finishedAt: '2026-03-02T10:30:00.000Z',
    status: 'passed',
    argv: [],
    counts: { passed: 4, failed: 0, skipped: 0, todo: 0 },
  });
  const byConfig = new Map(report.groups.map((g) => [g.key['metadata.harness_config'] ?? null, g.values.passRate]));
  const api = new ViewerApi(store, { redactor: new Redactor(['s3cr3t-value']), resultsDb: 'mem', cwd: '/' });
  return { store, api, byConfig };
}

describe('ViewerApi', () => {
  test('pages a run’s executions from an offset and reports the total', async () => {
    const { api, store } = await seeded();
    const all = await api.executions(RUN, 0);
    expect(all.total).toBe(5);
    expect(all.executions).toHaveLength(5);
    const rest = await api.executions(RUN, 3);
    expect(rest.executions.map((e) => e.executionId)).toEqual(all.executions.slice(3).map((e) => e.executionId));
    expect(rest.total).toBe(5);
    await expect(api.executions('run-unknown', 0)).rejects.toThrow(ViewerNotFound);
    await store.close();
  });

  test('trends per metadata.harness_config over runs carry the store’s rates and intervals', async () => {
    const { api, byConfig, store } = await seeded();
    const page = await api.trends('metadata.harness_config', 'run');
    const mathSeries = page.series.filter((s) => s.key.evaluator === 'example.math.v1');
    expect(mathSeries.map((s) => s.key['metadata.harness_config'])).toEqual(['A', 'B']);
    for (const series of mathSeries) {
      expect(series.points).toHaveLength(1);
      expect(series.points[0]!.at).toBe(RUN);
      expect(series.points[0]!.passRate).toBe(byConfig.get(series.key['metadata.harness_config'] ?? null));
    }
    const weekly = await api.trends('evaluator', 'time.week');
    expect(weekly.series.every((s) => s.points.every((p) => /^\d{4}-\d{2}-\d{2}$/.test(p.at)))).toBe(true);
    await store.close();
  });

  test('the runs view sums every evaluator of a run; the run view has attempts, case rates and a count', async () => {
    const { api, store } = await seeded();
    const runs = await api.runs();
    expect(runs.runs.map((r) => r.run.runId)).toEqual([RUN]);
    expect(runs.runs[0]!.expectedCount).toBeGreaterThan(0);
    const run = await api.run(RUN);
    expect(run.executionCount).toBe(5);
    expect(run.attempts).toHaveLength(5);
    expect(run.caseRates.some((c) => c.caseId === 'case-1')).toBe(true);
    await expect(api.run('run-unknown')).rejects.toThrow(ViewerNotFound);
    await expect(api.execution('exec-unknown')).rejects.toThrow(ViewerNotFound);
    await store.close();
  });

  test('evidence is read only when the execution’s own timeline names it', async () => {
    const { api, store } = await seeded();
    const [first] = (await api.executions(RUN, 0)).executions;
    await expect(api.evidence(first!.executionId, 're:../../etc/passwd')).rejects.toThrow(ViewerNotFound);
    await store.close();
  });

  test('query parameters are checked: offsets are whole numbers, groups and buckets are known', () => {
    expect(parseOffset(undefined)).toBe(0);
    expect(parseOffset('150')).toBe(150);
    expect(() => parseOffset('-1')).toThrow(ViewerBadRequest);
    expect(() => parseOffset('1e3')).toThrow(ViewerBadRequest);
    expect(parseTrendQuery(undefined, undefined)).toEqual({ group: 'evaluator', bucket: 'run' });
    expect(parseTrendQuery('metadata.harness_config', 'time.day')).toEqual({
      group: 'metadata.harness_config',
      bucket: 'time.day',
    });
    expect(() => parseTrendQuery('status', 'run')).toThrow(/group must be/);
    expect(() => parseTrendQuery('metadata.x y', 'run')).toThrow(ViewerBadRequest);
    expect(() => parseTrendQuery('model', 'time.hour')).toThrow(/bucket must be run, time.day or time.week/);
  });
});
