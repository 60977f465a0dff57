// The run view's surface section (contract §25): what the run's executions exercised of each
// server's tools, prompts and resources, merged from the evidence each execution stored.
import { collectRunSurfaceCoverage } from '@sf-m3/core/internal';
import type { ExecutionStore, RunSurfaceCoverage } from '@sf-m3/core';
import { ViewerNotFound } from './ViewerNotFound';

/** The surface coverage of one run; an unknown run is `ViewerNotFound`. */
export async function surfacePage(store: ExecutionStore, runId: string): Promise<RunSurfaceCoverage> {
  if ((await store.getRun(runId)) === null) throw new ViewerNotFound(`run ${runId} is not in the results database`);
  return collectRunSurfaceCoverage(store, runId);
}
