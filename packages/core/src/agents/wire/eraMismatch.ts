import type { TraceEvent } from '../../trace/Event';

/**
 * The words of the `era_mismatch` diagnostic the capture layer recorded for `server` (a 2025-only
 * agent refused by a 2026-07-28-only server, contract §23), if any: a harness whose agent reports
 * only "failed to start" puts them in the execution error, so the error says why.
 */
export function eraMismatchFor(events: readonly TraceEvent[], server: string): string | undefined {
  const found = events.find(
    (e) =>
      e.kind === 'diagnostic' &&
      e.origin === 'wire_observed' &&
      e.server === server &&
      e.payload.code === 'era_mismatch',
  );
  return typeof found?.payload.message === 'string' ? found.payload.message : undefined;
}

/**
 * The first `era_mismatch` diagnostic the capture layer recorded for any server, with that server's
 * name, if any: the agent session fails a turn that met one (contract §23), whatever the harness.
 */
export function firstEraMismatch(events: readonly TraceEvent[]): { server: string; message: string } | undefined {
  const found = events.find(
    (e) => e.kind === 'diagnostic' && e.origin === 'wire_observed' && e.payload.code === 'era_mismatch',
  );
  if (found === undefined || typeof found.payload.message !== 'string') return undefined;
  return { server: typeof found.server === 'string' ? found.server : '(unknown)', message: found.payload.message };
}
