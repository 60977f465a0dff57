import type { RunStateDir } from './RunStateDir';

/** Signals that end a Jest run early (Ctrl-C, `kill`, a closed terminal). */
const ENDING_SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/**
 * Removes the run-state folder when Jest's main process is ended by a signal (its teardown never
 * runs then), and lets the signal end the process as it would have: when no other listener is
 * left, it is raised again with the default action, so the exit status still names the signal.
 * Returns the function that removes the listeners (teardown calls it).
 */
export function removeOnSignal(stateDir: RunStateDir): () => void {
  const listeners = new Map<NodeJS.Signals, () => void>();
  const release = (): void => {
    for (const [signal, listener] of listeners) process.off(signal, listener);
    listeners.clear();
  };
  for (const signal of ENDING_SIGNALS) {
    const listener = (): void => {
      release();
      stateDir.remove();
      if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
    };
    listeners.set(signal, listener);
    process.on(signal, listener);
  }
  return release;
}
