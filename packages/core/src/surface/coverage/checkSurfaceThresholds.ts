// Judges a run's surface coverage against `m3.surfaceThreshold` (contract §25), as Jest judges
// `coverageThreshold`: a server's own entry overrides `global` measure by measure. A measure with
// nothing to cover (total 0: the kind was never listed, or the server advertises none) cannot be
// judged and never misses; a threshold naming a server the run never reached misses every measure
// it names, so a misspelt server name is not a silent pass.
import type {
  RunSurfaceCoverage,
  ServerSurfaceCoverage,
  SurfaceMeasure,
  SurfaceThreshold,
  SurfaceThresholdConfig,
  SurfaceThresholdMiss,
} from './SurfaceCoverage';
import { SURFACE_MEASURES } from './SurfaceCoverage';

/** What is uncovered for `measure`, as the miss message lists it. */
function uncoveredFor(server: ServerSurfaceCoverage, measure: SurfaceMeasure): string[] {
  switch (measure) {
    case 'tools':
      return [...server.neverCalled];
    case 'toolsSucceeded':
      return server.tools
        .filter((row) => row.successes === 0 && !server.unadvertisedCalls.includes(row.tool))
        .map((row) => row.tool);
    case 'properties':
      return server.tools.flatMap((row) => row.propertiesUnused.map((property) => `${row.tool}.${property}`));
    case 'enums':
      return server.tools.flatMap((row) => row.enumValuesUnused.map((value) => `${row.tool}.${value}`));
    case 'prompts':
      return [...server.promptsUnused];
    case 'resources':
      return [...server.resourcesUnused];
  }
}

function thresholdFor(config: SurfaceThresholdConfig, server: string): SurfaceThreshold {
  return { ...config.global, ...(server === 'global' ? {} : config[server]) };
}

/** Every missed threshold, in server then measure order; empty when the run passes. */
export function checkSurfaceThresholds(
  coverage: RunSurfaceCoverage,
  config: SurfaceThresholdConfig,
): SurfaceThresholdMiss[] {
  const misses: SurfaceThresholdMiss[] = [];
  for (const server of coverage.servers) {
    const threshold = thresholdFor(config, server.server);
    for (const measure of SURFACE_MEASURES) {
      const required = threshold[measure];
      const { percent } = server.measures[measure];
      if (required === undefined || percent === null || percent >= required) continue;
      misses.push({
        server: server.server,
        measure,
        required,
        actual: percent,
        uncovered: uncoveredFor(server, measure),
      });
    }
  }
  const reached = new Set(coverage.servers.map((server) => server.server));
  for (const [server, threshold] of Object.entries(config)) {
    if (server === 'global' || reached.has(server) || threshold === undefined) continue;
    for (const measure of SURFACE_MEASURES) {
      const required = threshold[measure];
      if (required !== undefined) misses.push({ server, measure, required, actual: null, uncovered: [] });
    }
  }
  return misses;
}
