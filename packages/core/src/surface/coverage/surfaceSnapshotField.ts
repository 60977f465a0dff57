// The `surface` field of a finished execution's stored snapshot (contract §25), computed once at
// finish from its trace, for direct and agent executions alike; left out when the execution
// reached no server, so snapshots of executions without MCP traffic stay as they were.
import type { JsonObject } from '../../json';
import type { TraceResult } from '../../trace/TraceResult';
import { surfaceEvidenceOfEvents } from './SurfaceEvidenceCollector';

/** `{ surface }` to spread into a stored snapshot, or `{}` when the trace shows no server. */
export function surfaceSnapshotField(trace: TraceResult): { surface?: JsonObject } {
  const surface = surfaceEvidenceOfEvents(trace.events);
  return Object.keys(surface).length === 0 ? {} : { surface: surface as unknown as JsonObject };
}
