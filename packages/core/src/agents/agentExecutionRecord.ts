import type { JsonObject } from '../json';
import type { ExecutionRecord } from '../store/records';
import type { AgentHost } from './AgentHost';

/** What the execution record needs to know about the agent (a subset of `AgentIdentity`). */
export interface AgentRecordIdentity {
  readonly harness: string;
  readonly model: string;
  readonly trial: number;
  /** The selection's `name`, when it has one. */
  readonly name?: string;
  /** Host of the model endpoint (openai), null when the agent owns it (acp). */
  readonly endpointHost: string | null;
}

/**
 * `metadata.harness_config` of an agent execution: `<harness>:<model>`, plus `:<name>` when the
 * selection has a name other than its harness kind (the label pass rates are grouped by).
 */
export function harnessConfigLabel(identity: Pick<AgentRecordIdentity, 'harness' | 'model' | 'name'>): string {
  const base = `${identity.harness}:${identity.model}`;
  return identity.name !== undefined && identity.name !== identity.harness ? `${base}:${identity.name}` : base;
}

/**
 * The record `store.createExecution` gets when an agent session opens: labels harness, model and
 * trial, and `metadata.harness_config` / `metadata.trial`. A trial the kit already carries (a
 * `test.m3` expansion labels its kit with server/harness/model/trial) wins over the selection's own
 * number, which counts only within one `kit.agents` call.
 */
export function agentExecutionRecord(input: {
  host: AgentHost;
  identity: AgentRecordIdentity;
  executionId: string;
  caseId: string | null;
  timeoutMs: number;
  createdAt: string;
  servers: JsonObject[];
  requiredEvaluators?: readonly string[];
}): ExecutionRecord {
  const { host, identity, executionId, caseId, timeoutMs, createdAt, servers } = input;
  const single = servers.length === 1 ? servers[0] : undefined;
  const kitLabels = host.labels;
  const trial = kitLabels.trial ?? String(identity.trial);
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
    ...kitLabels,
    metadata: { ...(kitLabels.metadata ?? {}), harness_config: harnessConfigLabel(identity), trial },
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
      ...(identity.name !== undefined && { name: identity.name }),
      trial: /^\d+$/.test(trial) ? Number(trial) : trial,
      endpointHost: identity.endpointHost,
      timeoutMs,
      servers,
    }) as JsonObject,
    servers: servers as unknown as ExecutionRecord['servers'],
    labels: { ...labels, harness: identity.harness, model: identity.model, trial },
    requiredEvaluators: [...(input.requiredEvaluators ?? [])],
    createdAt,
    finishedAt: null,
    outcome: null,
    snapshot: { lifecycle: 'starting' },
  };
}
