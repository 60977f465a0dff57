import type { ServerDescription } from '../servers/ServerDefinition';
import type { ExecutionRecord } from '../store/records';
import type { ExecutionContext } from './DirectClientHost';

/** The record `store.createExecution` gets when a direct client connects. */
export function directExecutionRecord(input: {
  executionId: string;
  context: ExecutionContext;
  binding: ServerDescription;
  createdAt: string;
}): ExecutionRecord {
  const { executionId, context, binding, createdAt } = input;
  return {
    executionId,
    runId: context.runId,
    suiteName: context.suiteName,
    caseId: context.caseId,
    attemptId: context.attemptId,
    kind: 'direct',
    spec: context.spec,
    servers: [binding],
    labels: {
      runId: context.runId,
      suiteName: context.suiteName,
      caseId: context.caseId,
      server: binding.name,
      transport: binding.transport,
      harness: null,
      model: null,
      trial: null,
      matrixId: null,
      metadata: {},
      ...context.labels,
    },
    requiredEvaluators: context.requiredEvaluators,
    createdAt,
    finishedAt: null,
    outcome: null,
    snapshot: { lifecycle: 'starting' },
  };
}
