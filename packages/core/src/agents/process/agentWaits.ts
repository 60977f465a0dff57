import type { AgentExit, AgentProcess } from './AgentProcess';

/** Resolves after `ms` (the timer does not keep the process alive). */
export const delay = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms).unref());

/** How an agent ended, for an error message: its spawn error, `signal SIGTERM` or `exit code 1`. */
export function describeExit(exit: AgentExit): string {
  return exit.spawnError ?? (exit.signal !== null ? `signal ${exit.signal}` : `exit code ${String(exit.code)}`);
}

/** The agent's exit if it comes within `ms`, else undefined (a broken pipe is often the exit in flight). */
export function exitWithin(proc: AgentProcess, ms: number): Promise<AgentExit | undefined> {
  return Promise.race([proc.exited, delay(ms).then(() => undefined)]);
}

/** A promise that rejects with the signal's reason once it aborts (at once if it has), and its unhook. */
export interface AbortRejection {
  readonly aborted: Promise<never>;
  /** Removes the abort listener; call it when the raced wait is over. */
  readonly dispose: () => void;
}

/**
 * The execution's end as a rejection to race a wait against. It never counts as unhandled: the
 * race that uses it handles it, and one left unraced is ignored.
 */
export function abortRejection(signal: AbortSignal): AbortRejection {
  let onAbort = (): void => undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(signal.reason);
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  aborted.catch(() => undefined);
  return { aborted, dispose: () => signal.removeEventListener('abort', onAbort) };
}

/**
 * The end of an agent process at close: stdin closed, up to `exitWaitMs` to leave on its own, then
 * its process group terminated (SIGTERM, grace, SIGKILL). False when some process of the group
 * could not be reaped; true when there was no process.
 */
export async function endAgentProcess(proc: AgentProcess | undefined, exitWaitMs: number): Promise<boolean> {
  if (proc === undefined) return true;
  proc.child.stdin.end();
  await Promise.race([proc.exited, delay(exitWaitMs)]);
  return proc.terminate();
}
