import type { DirectClient } from '../client/DirectClient';
import type { ExecutionContext } from '../client/DirectClientHost';
import type { DirectClientOptions } from '../client/DirectClientOptions';
import { ExecutionHandle } from '../execution/ExecutionHandle';
import type { Redactor } from '../redaction/Redactor';
import type { ServerDefinition } from '../servers/ServerDefinition';
import type { DirectSpec } from './DirectSpec';
import { runDirectSpec } from './runDirectSpec';

/** What submitting a direct spec needs from the kit. */
export interface DirectSpecSubmitter {
  readonly redactor: Redactor;
  /** The kit's deadline for specs that set none. */
  readonly executionTimeoutMs: number | undefined;
  /** Makes (and tracks) a client whose execution has the kit's context under `overrides`. */
  openClient(
    server: ServerDefinition,
    options: DirectClientOptions,
    overrides: Partial<ExecutionContext> & Pick<ExecutionContext, 'spec'>,
  ): DirectClient;
  /** Keeps `kit.close()` waiting for `promise`; returns it unchanged. */
  track<T>(promise: Promise<T>): Promise<T>;
}

/**
 * Starts a `DirectSpec` in the background (`kit.submit`): one client for the spec's server whose
 * execution records the redacted spec, its case, labels and required evaluators; the returned
 * handle streams the client's events and cancel closes the client.
 */
export function submitDirectSpec(spec: DirectSpec, kit: DirectSpecSubmitter): ExecutionHandle {
  const client = kit.openClient(
    spec.server,
    {
      ...(spec.operationTimeoutMs !== undefined && { timeoutMs: spec.operationTimeoutMs }),
      validateSchemas: spec.validateSchemas,
    },
    {
      spec: kit.redactor.redactJson(spec.describe()),
      ...(spec.caseId !== undefined && { caseId: spec.caseId }),
      labels: spec.labels,
      requiredEvaluators: spec.evaluations.filter((e) => e.required === true).map((e) => e.name),
    },
  );
  const done = kit.track(runDirectSpec(spec, client, kit.executionTimeoutMs));
  return new ExecutionHandle({
    executionId: client.executionId,
    feed: client,
    done,
    cancel: () => client.closeWith({ reason: 'cancel' }),
  });
}
