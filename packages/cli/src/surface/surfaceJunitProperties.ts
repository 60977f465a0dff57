// Surface coverage as JUnit `<property>` elements of every `<testsuite>` (beside `m3.runId` and
// `m3.verdict`; contract §25), named `m3.surface.<server>.<measure>` with `covered/total` values
// (`not listed` when no test listed that kind), and `m3.surface.<server>.neverCalled` when an
// advertised tool was never called.
import type { RunSurfaceCoverage } from '@sf-m3/core';
import { SURFACE_MEASURES } from '@sf-m3/core/internal';

/** Which listing each measure needs before it can be counted. */
function listedFor(server: RunSurfaceCoverage['servers'][number], measure: (typeof SURFACE_MEASURES)[number]): boolean {
  if (measure === 'prompts') return server.listed.prompts;
  if (measure === 'resources') return server.listed.resources || server.listed.resourceTemplates;
  return server.listed.tools;
}

/** `[name, value]` pairs for the run's surface coverage; none when no execution reached a server. */
export function surfaceJunitProperties(coverage: RunSurfaceCoverage | null): Array<[string, string]> {
  const properties: Array<[string, string]> = [];
  for (const server of coverage?.servers ?? []) {
    for (const measure of SURFACE_MEASURES) {
      const { covered, total } = server.measures[measure];
      properties.push([
        `m3.surface.${server.server}.${measure}`,
        listedFor(server, measure) ? `${covered}/${total}` : 'not listed',
      ]);
    }
    if (server.neverCalled.length > 0) {
      properties.push([`m3.surface.${server.server}.neverCalled`, server.neverCalled.join(', ')]);
    }
  }
  return properties;
}
