import type { M3Logger } from '../logging/logger';
import type { OpenedTransport } from '../transport/openTransport';

/** How long close waits for a reaped child to report its exit before finishing the trace. */
const EXIT_WAIT_MS = 5_000;

/**
 * Reaps what a closing connection opened (the stdio child and its process group) and waits, at
 * most `EXIT_WAIT_MS`, for the child's exit to be recorded. Never throws: a failure adds the
 * `cleanup_failed` limitation and is logged without details.
 */
export async function reapServer(opened: OpenedTransport, limitations: string[], logger: M3Logger): Promise<void> {
  try {
    await opened.reap();
    if (opened.process !== undefined) await waitAtMost(opened.process.exited, EXIT_WAIT_MS);
  } catch (error) {
    limitations.push('cleanup_failed');
    logger.warn('reaping the server process failed', { errorType: (error as Error).constructor?.name });
  }
}

async function waitAtMost(promise: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    promise.then(
      () => undefined,
      () => undefined,
    ),
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, ms);
      timer.unref();
    }),
  ]);
  if (timer !== undefined) clearTimeout(timer);
}
