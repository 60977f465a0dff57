import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { InMemoryExecutionStore, Redactor } from '@sf-m3/core';
import { apiPaths } from '../api/apiPaths';
import { ViewerApi } from '../api/ViewerApi';
import { buildViewerRouter } from './apiRoutes';

/** The router on a real loopback server (no assets, no token check: this tests routing only). */
async function serve(store: InMemoryExecutionStore): Promise<{ server: Server; base: string; errors: unknown[] }> {
  const api = new ViewerApi(store, { redactor: new Redactor([]), resultsDb: 'mem', cwd: '/' });
  const errors: unknown[] = [];
  const router = buildViewerRouter(api, new Map(), (error) => errors.push(error));
  const server = createServer((request, response) => router.lookup(request, response));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, errors };
}

describe('the viewer routes: surface coverage', () => {
  test('a run’s surface and the surface trends answer JSON at their api paths; an unknown run is 404', async () => {
    const store = new InMemoryExecutionStore();
    await store.saveRun({
      runId: 'run-1',
      label: null,
      startedAt: '2026-12-01T09:00:00.000Z',
      finishedAt: '2026-12-01T09:01:00.000Z',
      status: 'passed',
      argv: [],
      counts: { passed: 0, failed: 0, skipped: 0, todo: 0 },
    });
    const { server, base, errors } = await serve(store);
    try {
      const surface = await fetch(base + apiPaths.surface('run-1'));
      expect(surface.status).toBe(200);
      expect(await surface.json()).toEqual({ runId: 'run-1', servers: [] });
      const trends = await fetch(base + apiPaths.surfaceTrends());
      expect(trends.status).toBe(200);
      expect(await trends.json()).toEqual({ runs: ['run-1'], series: [] });
      const unknown = await fetch(base + apiPaths.surface('run-unknown'));
      expect(unknown.status).toBe(404);
      expect(await unknown.json()).toEqual({
        error: { status: 404, message: 'run run-unknown is not in the results database' },
      });
      expect(errors).toEqual([]);
    } finally {
      await new Promise((resolve) => server.close(resolve));
      await store.close();
    }
  });
});
