import type { JsonObject } from '../json';
import type { ServerDescription } from '../servers/ServerDefinition';
import type { ExecutionCreatedPayload, InitializedPayload } from '../trace/payloads';
import type { TraceRecorder } from '../trace/TraceRecorder';
import type { ExecutionContext } from './DirectClientHost';
import type { InitializationResult } from './results';

/** Records the first event of a direct execution: runtime `direct`, run/suite/case, the server. */
export function recordExecutionCreated(
  recorder: TraceRecorder,
  input: { traceId: string; context: ExecutionContext; binding: ServerDescription },
): void {
  const created: ExecutionCreatedPayload = {
    traceId: input.traceId,
    runtime: 'direct',
    runId: input.context.runId,
    suiteName: input.context.suiteName,
    caseId: input.context.caseId,
    servers: [{ ...input.binding }],
  };
  recorder.record('execution.created', {
    phase: 'startup',
    origin: 'normalized',
    direction: 'internal',
    payload: created,
  });
}

/** Records `mcp.initialized`: what the server said when this connection opened, its era and how it was chosen. */
export function recordInitialized(
  recorder: TraceRecorder,
  initialization: InitializationResult,
  where: { server: string; connectionId: string },
  negotiation?: InitializedPayload['negotiation'],
): void {
  const initialized: InitializedPayload = {
    protocolVersion: initialization.protocolVersion,
    era: initialization.era,
    ...(negotiation !== undefined && { negotiation }),
    serverInfo: initialization.serverInfo as JsonObject,
    capabilities: initialization.capabilities as JsonObject,
    instructions: initialization.instructions,
  };
  recorder.record('mcp.initialized', {
    phase: 'initialization',
    origin: 'normalized',
    direction: 'server_to_client',
    server: where.server,
    connectionId: where.connectionId,
    payload: initialized,
  });
}
