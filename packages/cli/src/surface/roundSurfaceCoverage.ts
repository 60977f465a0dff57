// Surface coverage as JSON outputs show it (feedback.json, `--json`, `m3 report --surface --json`):
// percentages to two decimal places, so `77.77777777777779` reads `77.78`. Thresholds are judged
// on the exact numbers before this.
import type { CoverageCount, RunSurfaceCoverage, SurfaceMeasure } from '@sf-m3/core';

const roundPercent = (count: CoverageCount): CoverageCount => ({
  ...count,
  percent: count.percent === null ? null : Math.round(count.percent * 100) / 100,
});

/** A copy of `coverage` with every percentage rounded to two decimals. */
export function roundSurfaceCoverage(coverage: RunSurfaceCoverage | null): RunSurfaceCoverage | null {
  if (coverage === null) return null;
  return {
    ...coverage,
    servers: coverage.servers.map((server) => ({
      ...server,
      measures: Object.fromEntries(
        Object.entries(server.measures).map(([measure, count]) => [measure, roundPercent(count)]),
      ) as Record<SurfaceMeasure, CoverageCount>,
    })),
  };
}
