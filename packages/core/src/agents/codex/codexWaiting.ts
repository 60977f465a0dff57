import { M3Error } from '../../errors';
import type { AgentExit } from '../process/AgentProcess';
import { describeExit } from '../process/agentWaits';

/** The error of a Codex that exited (or could not start) while the kit waited for `what`. */
export function codexExited(exit: AgentExit, what: string): M3Error {
  const how = describeExit(exit);
  return new M3Error('agent_exited', `codex app-server exited (${how}) while the kit waited for ${what}`, {
    exitCode: exit.code,
    signal: exit.signal,
    method: what,
  });
}

/**
 * Resolves with `check()`'s value once it gives one (checked now and each time the function handed
 * to `setWake` is called; a throw rejects), or rejects with the signal's reason when it aborts, or
 * with `exited`'s error when the process ends first. Settles once; unhooks itself (`setWake(undefined)`).
 */
export function waitUntil<T>(
  signal: AbortSignal,
  exited: Promise<Error>,
  check: () => T | undefined,
  setWake: (wake: (() => void) | undefined) => void,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let finished = false;
    const done = (): boolean => {
      if (finished) return false;
      finished = true;
      setWake(undefined);
      signal.removeEventListener('abort', onAbort);
      return true;
    };
    const test = (): void => {
      try {
        const value = check();
        if (value !== undefined && done()) resolve(value);
      } catch (error) {
        if (done()) reject(error);
      }
    };
    const onAbort = (): void => {
      if (done()) reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    setWake(test);
    void exited.then((error) => {
      if (done()) reject(error);
    });
    if (signal.aborted) onAbort();
    else test();
  });
}
