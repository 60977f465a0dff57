// A server's surface trend (contract §25) as chart lines: tools called % and tools succeeded % per
// run, as rates in [0, 1]. A run where the server listed no tools has no point (nothing to judge).
import type { CoverageCount } from '@sf-m3/core';
import type { SurfaceTrendSeries } from '../api/surfaceTrendsPage';

/** One chart line (the shape TrendChart draws; no interval band). */
export interface SurfaceTrendLine {
  label: string;
  points: { x: number; y: number | null; lo: null; hi: null }[];
}

function rate(count: CoverageCount): number | null {
  return count.total === 0 ? null : count.covered / count.total;
}

/** The two lines of one server's chart. */
export function surfaceTrendLines(series: SurfaceTrendSeries): SurfaceTrendLine[] {
  const line = (label: string, pick: (p: SurfaceTrendSeries['points'][number]) => CoverageCount): SurfaceTrendLine => ({
    label,
    points: series.points.map((p) => ({ x: p.x, y: rate(pick(p)), lo: null, hi: null })),
  });
  return [line('tools called', (p) => p.tools), line('tools succeeded', (p) => p.toolsSucceeded)];
}
