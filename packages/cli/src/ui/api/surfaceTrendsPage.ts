// The trends view's surface charts (contract §25): per server, the share of advertised tools the
// run called and the share that answered without `isError`, over the newest runs. Each run's
// coverage is merged from its executions' stored evidence, so this view covers fewer runs than
// the pass-rate trends (SURFACE_TREND_RUNS).
import { collectRunSurfaceCoverage } from '@sf-m3/core/internal';
import type { CoverageCount, ExecutionStore } from '@sf-m3/core';
import { SURFACE_TREND_RUNS } from './apiPaths';

/** One run's point of a server's surface trend. */
export interface SurfaceTrendPoint {
  /** The run's start, in seconds since the epoch. */
  x: number;
  runId: string;
  tools: CoverageCount;
  toolsSucceeded: CoverageCount;
}

/** One server's points, oldest run first (runs whose executions never met the server are left out). */
export interface SurfaceTrendSeries {
  server: string;
  points: SurfaceTrendPoint[];
}

/** The surface trends' data: the runs looked at (newest first) and one series per server name. */
export interface SurfaceTrendsPage {
  runs: string[];
  series: SurfaceTrendSeries[];
}

/** Merges the coverage of the newest `SURFACE_TREND_RUNS` runs into per-server series. */
export async function surfaceTrendsPage(store: ExecutionStore): Promise<SurfaceTrendsPage> {
  const runs = await store.listRuns({ limit: SURFACE_TREND_RUNS });
  const series = new Map<string, SurfaceTrendPoint[]>();
  for (const run of [...runs].reverse()) {
    const coverage = await collectRunSurfaceCoverage(store, run.runId);
    for (const server of coverage.servers) {
      const points = series.get(server.server) ?? [];
      points.push({
        x: Date.parse(run.startedAt) / 1000,
        runId: run.runId,
        tools: server.measures.tools,
        toolsSucceeded: server.measures.toolsSucceeded,
      });
      series.set(server.server, points);
    }
  }
  return {
    runs: runs.map((r) => r.runId),
    series: [...series.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([server, points]) => ({ server, points: points.sort((a, b) => a.x - b.x) })),
  };
}
