import { performance } from 'node:perf_hooks';
import type { DirectClient } from '../client/DirectClient';
import type { ExecutionResult } from '../execution/ExecutionResult';
import type { DirectSpec } from './DirectSpec';

/**
 * connect → operation → close, with the spec's deadline (else `defaultTimeoutMs`, the run's
 * `--execution-timeout`); never rejects for operation failures.
 */
export async function runDirectSpec(
  spec: DirectSpec,
  client: DirectClient,
  defaultTimeoutMs?: number,
): Promise<ExecutionResult> {
  const started = performance.now();
  let stage = 'execution_startup';
  let timer: NodeJS.Timeout | undefined;
  const deadlineMs = spec.timeoutMs ?? defaultTimeoutMs;
  if (deadlineMs !== undefined) {
    const timeoutMs = deadlineMs;
    timer = setTimeout(() => {
      const elapsedMs = Math.round(performance.now() - started);
      void client
        .closeWith({
          reason: 'deadline',
          diagnostic: {
            code: 'deadline_exceeded',
            message: `execution deadline of ${timeoutMs} ms passed during ${stage} (${spec.operation}): raise the spec's timeoutMs if the server is just slow`,
            stage,
            operation: spec.operation,
            elapsedMs,
            timeoutMs,
          },
        })
        .catch(() => undefined);
    }, timeoutMs);
  }
  try {
    await client.connect();
    stage = 'mcp_call';
    const live = await spec.perform(client);
    client.setDirectResult(spec.toDirectResult(live), live);
  } catch {
    // The client recorded the failure; its outcome and error are in the result.
  } finally {
    if (timer !== undefined) clearTimeout(timer);
  }
  stage = 'cleanup';
  await client.close();
  return client.result;
}
