// Reads a run's surface coverage back from its store (contract §25): every execution of the run
// carries what it saw in its stored snapshot under `surface`; executions stored before coverage was
// recorded (no `surface`) are skipped, so an old history reads as "nothing seen", not as an error.
import { isObject } from '../../json';
import type { ExecutionStore } from '../../store/ExecutionStore';
import type { ExecutionRecord } from '../../store/records';
import { mergeSurfaceEvidence } from './mergeSurfaceEvidence';
import type { ExecutionSurfaceEvidence, RunSurfaceCoverage, ServerSurfaceEvidence } from './SurfaceCoverage';

/** Executions read per page, so a run of many thousands is never held in memory at once. */
const PAGE_SIZE = 500;

function isServerEvidence(value: unknown): value is ServerSurfaceEvidence {
  return (
    isObject(value) &&
    isObject(value.listed) &&
    isObject(value.advertised) &&
    isObject(value.advertised.tools) &&
    isObject(value.toolDefinitionHistory) &&
    isObject(value.tools) &&
    isObject(value.prompts) &&
    isObject(value.resources)
  );
}

/** The `surface` of a stored snapshot, keeping only servers whose evidence has the stored shape. */
export function surfaceOfSnapshot(snapshot: unknown): ExecutionSurfaceEvidence | undefined {
  if (!isObject(snapshot) || !isObject(snapshot.surface)) return undefined;
  const kept: Record<string, ServerSurfaceEvidence> = {};
  for (const [server, evidence] of Object.entries(snapshot.surface)) {
    if (isServerEvidence(evidence)) kept[server] = evidence;
  }
  return kept;
}

/** The evidence stored with `executions` (records as `listExecutions` returns them), skipping those without. */
export function surfaceEvidenceOfRecords(
  executions: readonly Pick<ExecutionRecord, 'snapshot'>[],
): ExecutionSurfaceEvidence[] {
  const evidence: ExecutionSurfaceEvidence[] = [];
  for (const execution of executions) {
    const surface = surfaceOfSnapshot(execution.snapshot);
    if (surface !== undefined) evidence.push(surface);
  }
  return evidence;
}

/** The surface coverage of run `runId`, merged from its stored executions' snapshots. */
export async function collectRunSurfaceCoverage(
  store: Pick<ExecutionStore, 'listExecutions'>,
  runId: string,
): Promise<RunSurfaceCoverage> {
  const evidence: ExecutionSurfaceEvidence[] = [];
  for (let offset = 0; ; offset += PAGE_SIZE) {
    const page = await store.listExecutions({ runId, limit: PAGE_SIZE, offset });
    evidence.push(...surfaceEvidenceOfRecords(page));
    if (page.length < PAGE_SIZE) break;
  }
  return mergeSurfaceEvidence(runId, evidence);
}
