// Trends with many evaluators (17 in a real suite) as small multiples: one small chart each, the
// worst first (lowest pass rate at the newest point), a few shown and the rest on demand.

/** A chart's series as `worstFirst` reads them: points in x order with a rate or null. */
export interface RatedSeries {
  points: readonly { y: number | null }[];
}

/** Charts shown before "show all". */
export const WORST_SHOWN = 6;

/** The lowest newest rate among a chart's series; null when none has a rate yet. */
export function newestWorstRate(series: readonly RatedSeries[]): number | null {
  let worst: number | null = null;
  for (const s of series) {
    const rated = s.points.filter((p) => p.y !== null);
    const newest = rated.length === 0 ? null : rated[rated.length - 1]!.y;
    if (newest !== null && (worst === null || newest < worst)) worst = newest;
  }
  return worst;
}

/** `charts` ordered worst first (ties by title; charts without a rate last). */
export function worstFirst<C extends { title: string; series: readonly RatedSeries[] }>(charts: readonly C[]): C[] {
  const rate = new Map(charts.map((c) => [c, newestWorstRate(c.series)]));
  return [...charts].sort((a, b) => {
    const ra = rate.get(a) ?? null;
    const rb = rate.get(b) ?? null;
    if (ra === null || rb === null) return ra === rb ? a.title.localeCompare(b.title) : ra === null ? 1 : -1;
    return ra - rb || a.title.localeCompare(b.title);
  });
}
