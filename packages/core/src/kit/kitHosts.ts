import type { AgentHost } from '../agents/AgentHost';
import type { DirectClientHost } from '../client/DirectClientHost';
import type { EvaluationResult } from '../evaluation/EvaluationResult';
import type { Redactor } from '../redaction/Redactor';
import type { ExecutionStore } from '../store/ExecutionStore';
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

/**
 * The run an agent selection's executions belong to, and the kit's defaults for them (the
 * `AgentHost` members the kit decides, with a run id always set).
 */
export type KitAgentScope = Pick<
  AgentHost,
  'suiteName' | 'caseId' | 'attemptId' | 'labels' | 'executionTimeoutMs' | 'assertOpen' | 'cassettes'
> & { readonly runId: string };

/** The members every host shares: the kit's redactor, store and link, and its tracking. */
function sharedHostMembers(sources: KitHostSources): Omit<DirectClientHost, 'clientClosed'> {
  const { resources } = sources;
  return {
    redactor: sources.redactor,
    store: sources.store,
    linkTarget: sources.linkTarget,
    executionCreated: (executionId) => resources.executionCreated(executionId),
    trackWrite: (write) => resources.track(write),
    evaluationsFor: (executionId) => sources.evaluationsFor(executionId),
  };
}

/** The `DirectClientHost` the kit gives every direct client it makes. */
export function createDirectClientHost(sources: KitHostSources): DirectClientHost {
  return {
    ...sharedHostMembers(sources),
    clientClosed: (client) => sources.resources.clientClosed(client),
  };
}

/** The `AgentHost` the kit gives every agent selection (and through it, every session). */
export function createAgentHost(sources: KitHostSources, scope: KitAgentScope): AgentHost {
  return {
    ...sharedHostMembers(sources),
    runId: scope.runId,
    suiteName: scope.suiteName,
    caseId: scope.caseId,
    attemptId: scope.attemptId,
    labels: scope.labels,
    executionTimeoutMs: scope.executionTimeoutMs,
    cassettes: scope.cassettes ?? null,
    assertOpen: (method) => scope.assertOpen(method),
    sessionOpened: (session) => sources.resources.sessionOpened(session),
  };
}
