import type { AgentHost } from '../agents/AgentHost';
import type { DirectClientHost } from '../client/DirectClientHost';
import type { EvaluationResult } from '../evaluation/EvaluationResult';
import type { Redactor } from '../redaction/Redactor';
import type { ExecutionStore } from '../store/ExecutionStore';
import type { ExecutionRecord } from '../store/records';
import type { KitResources } from './KitResources';

/** What both hosts hand out on the kit's behalf. */
export interface KitHostSources {
  readonly redactor: Redactor;
  readonly store: ExecutionStore;
  /** The kit results are linked to (`linkToKit`). */
  readonly linkTarget: object;
  /** Where executions, clients, sessions and writes are tracked for `kit.close()`. */
  readonly resources: KitResources;
  /** Evaluations saved so far for an execution. */
  evaluationsFor(executionId: string): EvaluationResult[];
}

/** The run an agent selection's executions belong to, and the kit's defaults for them. */
export interface KitAgentScope {
  readonly runId: string;
  readonly suiteName: string | null;
  readonly caseId: string | null;
  readonly attemptId: string | null;
  readonly labels: Partial<ExecutionRecord['labels']>;
  readonly executionTimeoutMs: number | undefined;
  /** Throws `KitClosed` once the kit is closed. */
  assertOpen(method: string): void;
}

/** The `DirectClientHost` the kit gives every direct client it makes. */
export function createDirectClientHost(sources: KitHostSources): DirectClientHost {
  const { resources } = sources;
  return {
    redactor: sources.redactor,
    store: sources.store,
    linkTarget: sources.linkTarget,
    executionCreated: (executionId) => resources.executionCreated(executionId),
    trackWrite: (write) => resources.track(write),
    clientClosed: (client) => resources.clientClosed(client),
    evaluationsFor: (executionId) => sources.evaluationsFor(executionId),
  };
}

/** The `AgentHost` the kit gives every agent selection (and through it, every session). */
export function createAgentHost(sources: KitHostSources, scope: KitAgentScope): AgentHost {
  const { resources } = sources;
  return {
    redactor: sources.redactor,
    store: sources.store,
    linkTarget: sources.linkTarget,
    runId: scope.runId,
    suiteName: scope.suiteName,
    caseId: scope.caseId,
    attemptId: scope.attemptId,
    labels: scope.labels,
    executionTimeoutMs: scope.executionTimeoutMs,
    assertOpen: (method) => scope.assertOpen(method),
    executionCreated: (executionId) => resources.executionCreated(executionId),
    trackWrite: (write) => resources.track(write),
    sessionOpened: (session) => resources.sessionOpened(session),
    evaluationsFor: (executionId) => sources.evaluationsFor(executionId),
  };
}
