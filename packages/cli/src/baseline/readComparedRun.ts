// Reads what a baseline comparison needs of one run: its facts, its pass-rate rows and the
// tools/list catalogs its executions observed.
import type { Redactor } from '@sf-m3/core';
import { collectRunFacts, type RunFacts, type SummaryStore } from '../summary/collectRunFacts';
import type { ComparedRun } from './compareBaseline';
import { collectRateGroups } from './collectRateGroups';
import { collectToolCatalogs } from './interface/collectToolCatalogs';

/** Reads one side of a comparison; `facts` is reused when the caller already read them. */
export async function readComparedRun(
  store: SummaryStore,
  runId: string,
  redactor: Redactor,
  facts?: RunFacts,
): Promise<ComparedRun> {
  const [runFacts, rates, catalogs] = await Promise.all([
    facts ?? collectRunFacts(store, runId, redactor),
    collectRateGroups(store, runId),
    collectToolCatalogs(store, runId),
  ]);
  return { facts: runFacts, rates, catalogs };
}
