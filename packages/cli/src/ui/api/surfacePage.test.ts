import {
  type ExecutionStore,
  InMemoryExecutionStore,
  type JsonObject,
  Redactor,
  type RunSurfaceCoverage,
  type ServerSurfaceEvidence,
} from '@sf-m3/core';
import { executionRecord, finishedTrace } from '@sf-m3/test-utils/store';
import { collectReportData } from '../../report/html/collectReportData';
import { apiPaths, SURFACE_TREND_RUNS } from './apiPaths';
import type { SurfaceTrendsPage } from './surfaceTrendsPage';
import { ViewerApi } from './ViewerApi';
import { ViewerNotFound } from './ViewerNotFound';

/** What one execution saw of the shipping server: three tools listed, `used` called as given. */
function shippingEvidence(
  used: Record<string, { calls: number; successes: number; args?: Record<string, string> }>,
): ServerSurfaceEvidence {
  const tool = (properties: string[], enums: Record<string, string[]> = {}) => ({
    definitionHash: `hash-${properties.join('-')}`,
    properties,
    enums,
  });
  return {
    listed: { tools: true, prompts: false, resources: false, resourceTemplates: false },
    advertised: {
      tools: {
        shipping_quote: tool(['weight_kg', 'zone'], { zone: ['local', 'regional', 'international'] }),
        shipping_cancel: tool(['order_id']),
        shipping_track: tool(['tracking_id']),
      },
      prompts: {},
      resources: {},
      resourceTemplates: {},
    },
    toolDefinitionHistory: {},
    tools: Object.fromEntries(
      Object.entries(used).map(([name, use]) => [
        name,
        {
          calls: use.calls,
          successes: use.successes,
          propertiesUsed: Object.keys(use.args ?? {}).sort(),
          valuesUsed: Object.fromEntries(Object.entries(use.args ?? {}).map(([k, v]) => [k, [v]])),
        },
      ]),
    ),
    prompts: {},
    resources: {},
  };
}

/** Saves a finished run whose one execution stored `evidence` (per server) in its snapshot. */
async function saveRun(
  store: ExecutionStore,
  runId: string,
  startedAt: string,
  evidence: Record<string, ServerSurfaceEvidence> | null,
): Promise<void> {
  await store.saveRun({
    runId,
    label: null,
    startedAt,
    finishedAt: startedAt,
    status: 'passed',
    argv: [],
    counts: { passed: 1, failed: 0, skipped: 0, todo: 0 },
  });
  const execution = executionRecord({ runId, createdAt: startedAt });
  await store.createExecution(execution);
  const snapshot: JsonObject = { lifecycle: 'finished', outcome: 'completed' };
  if (evidence !== null) snapshot.surface = evidence as unknown as JsonObject;
  const { finished } = finishedTrace(execution.executionId);
  await store.finishExecution({ ...finished, finishedAt: startedAt, snapshot });
}

async function seeded(): Promise<{ store: ExecutionStore; api: ViewerApi }> {
  const store = new InMemoryExecutionStore();
  await saveRun(store, 'run-1', '2026-12-01T09:00:00.000Z', {
    shipping: shippingEvidence({ shipping_quote: { calls: 1, successes: 1, args: { weight_kg: '2', zone: 'local' } } }),
  });
  await saveRun(store, 'run-2', '2026-12-02T09:00:00.000Z', null); // recorded before surface coverage
  await saveRun(store, 'run-3', '2026-12-03T09:00:00.000Z', {
    shipping: shippingEvidence({
      shipping_quote: { calls: 2, successes: 2, args: { weight_kg: '3', zone: 'regional' } },
      shipping_cancel: { calls: 1, successes: 0, args: { order_id: '<img src=x onerror=alert(1)>' } },
    }),
  });
  const api = new ViewerApi(store, { redactor: new Redactor([]), resultsDb: 'mem', cwd: '/' });
  return { store, api };
}

describe('the viewer api: surface coverage', () => {
  test('a run’s surface is merged from its executions’ stored evidence; an unknown run is not found', async () => {
    const { api, store } = await seeded();
    const surface = await api.surface('run-3');
    expect(surface.runId).toBe('run-3');
    const [shipping] = surface.servers;
    expect(shipping?.server).toBe('shipping');
    expect(shipping?.measures.tools).toMatchObject({ covered: 2, total: 3 });
    expect(shipping?.measures.toolsSucceeded).toMatchObject({ covered: 1, total: 3 });
    expect(shipping?.neverCalled).toEqual(['shipping_track']);
    expect(shipping?.neverSucceeded).toEqual(['shipping_cancel']);
    expect(shipping?.tools.find((t) => t.tool === 'shipping_quote')).toMatchObject({ calls: 2, successes: 2 });
    expect((await api.surface('run-2')).servers).toEqual([]);
    await expect(api.surface('run-unknown')).rejects.toThrow(ViewerNotFound);
    await store.close();
  });

  test('surface trends: per server, tools called and succeeded in each run that met it, oldest first', async () => {
    const { api, store } = await seeded();
    const trends = await api.surfaceTrends();
    expect(trends.runs).toEqual(['run-3', 'run-2', 'run-1']);
    expect(trends.series.map((s) => s.server)).toEqual(['shipping']);
    expect(
      trends.series[0]!.points.map((p) => [p.runId, p.tools.covered, p.toolsSucceeded.covered, p.tools.total]),
    ).toEqual([
      ['run-1', 1, 1, 3],
      ['run-3', 2, 1, 3],
    ]);
    expect(trends.series[0]!.points[0]!.x).toBe(Date.parse('2026-12-01T09:00:00.000Z') / 1000);
    await store.close();
  });

  test(`surface trends cover the newest ${SURFACE_TREND_RUNS} runs only`, async () => {
    const store = new InMemoryExecutionStore();
    for (let i = 0; i < SURFACE_TREND_RUNS + 3; i += 1) {
      const day = String(1 + i).padStart(2, '0');
      await saveRun(store, `run-${day}`, `2026-10-${day}T09:00:00.000Z`, {
        shipping: shippingEvidence({ shipping_track: { calls: 1, successes: 1 } }),
      });
    }
    const api = new ViewerApi(store, { redactor: new Redactor([]), resultsDb: 'mem', cwd: '/' });
    const trends = await api.surfaceTrends();
    expect(trends.runs).toHaveLength(SURFACE_TREND_RUNS);
    expect(trends.series[0]!.points[0]!.runId).toBe('run-04');
    await store.close();
  });

  test('values pass through the viewer’s redactor: a secret of its environment sent as an enum value is blanked', async () => {
    const { store } = await seeded();
    const api = new ViewerApi(store, { redactor: new Redactor(['regional']), resultsDb: 'mem', cwd: '/' });
    const quote = (await api.surface('run-3')).servers[0]!.tools.find((t) => t.tool === 'shipping_quote')!;
    expect(JSON.stringify(quote)).not.toContain('regional');
    expect(quote.enumValuesUsed).toHaveLength(1);
    await store.close();
  });

  test('the static report embeds the run’s surface and the surface trends under their api paths', async () => {
    const { api, store } = await seeded();
    const responses = await collectReportData(api, 'run-3');
    const surface = responses[apiPaths.surface('run-3')] as RunSurfaceCoverage;
    expect(surface.servers[0]?.neverCalled).toEqual(['shipping_track']);
    const trends = responses[apiPaths.surfaceTrends()] as SurfaceTrendsPage;
    expect(trends.series[0]?.points).toHaveLength(2);
    expect(apiPaths.surface('run/3')).toBe('/api/runs/run%2F3/surface');
    await store.close();
  });
});
