import type { CoverageCount } from './SurfaceCoverage';

/** A covered / total pair; `percent` is `null` when there is nothing to cover (contract §25). */
export function coverageCount(covered: number, total: number): CoverageCount {
  return { covered, total, percent: total === 0 ? null : (covered / total) * 100 };
}
