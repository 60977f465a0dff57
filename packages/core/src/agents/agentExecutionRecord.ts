import type { JsonObject } from '../json';
import type { ExecutionRecord } from '../store/records';
import type { AgentHost } from './AgentHost';
import type { AgentIdentity } from './AgentSession';

/** The record `store.createExecution` gets when an agent session opens (labels harness/model/trial). */
export function agentExecutionRecord(input: {
  host: AgentHost;
  identity: AgentIdentity;
  executionId: string;
  caseId: string | null;
  timeoutMs: number;
  createdAt: string;
  servers: JsonObject[];
}): ExecutionRecord {
  const { host, identity, executionId, caseId, timeoutMs, createdAt, servers } = input;
  const single = servers.length === 1 ? servers[0] : undefined;
  const labels = {
    runId: host.runId,
    suiteName: host.suiteName,
    caseId,
    server: single !== undefined ? String(single.name) : null,
    transport: single !== undefined ? String(single.transport) : null,
    harness: null,
    model: null,
    trial: null,
    matrixId: null,
    metadata: {},
    ...host.labels,
  };
  return {
    executionId,
    runId: host.runId,
    suiteName: host.suiteName,
    caseId,
    attemptId: host.attemptId,
    kind: 'agent',
    spec: host.redactor.redactJson({
      kind: 'agent',
      harness: identity.harness,
      model: identity.model,
      trial: identity.trial,
      endpointHost: identity.endpoint.host,
      timeoutMs,
      servers,
    }) as JsonObject,
    servers: servers as unknown as ExecutionRecord['servers'],
    labels: {
      ...labels,
      harness: identity.harness,
      model: identity.model,
      trial: String(identity.trial),
    },
    requiredEvaluators: [],
    createdAt,
    finishedAt: null,
    outcome: null,
    snapshot: { lifecycle: 'starting' },
  };
}
