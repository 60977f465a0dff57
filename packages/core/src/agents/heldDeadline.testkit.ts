// A session deadline that fires when a test says so, not when the clock says so.
import type { TraceEvent } from '../trace/Event';
import type { AgentSession } from './AgentSession';

/** The deadline timer of the next agent session opened with a given `timeoutMs`, held back. */
export interface HeldDeadline {
  /** Fires the deadline now, as its timer would; throws when no session has set it yet. */
  fire(): void;
  /** Stops holding (a test that never opened its session leaves no spy behind). */
  restore(): void;
}

/**
 * Holds back the deadline of the next agent session that sets a timer of `timeoutMs`: the session
 * sets and clears it as ever, but it fires only on `fire()`. A test can so end an execution at the
 * exact stage it means to test, however long a loaded machine takes to get there. Other timers
 * (and the next ones of that length) run as usual; pick a `timeoutMs` no other timer uses.
 */
export function holdNextDeadline(timeoutMs: number): HeldDeadline {
  const realSetTimeout = globalThis.setTimeout;
  let expire: (() => void) | undefined;
  const spy = jest.spyOn(globalThis, 'setTimeout');
  spy.mockImplementation(((callback: (...args: unknown[]) => void, ms?: number, ...args: unknown[]) => {
    if (ms !== timeoutMs || expire !== undefined) return realSetTimeout(callback, ms, ...args);
    spy.mockRestore();
    expire = () => callback(...args);
    // A handle the session may clear; it fires nothing.
    return realSetTimeout(() => undefined, 0);
  }) as unknown as typeof setTimeout);
  return {
    fire: () => {
      if (expire === undefined) throw new Error(`no agent session set a ${timeoutMs} ms deadline to fire`);
      expire();
    },
    restore: () => spy.mockRestore(),
  };
}

/**
 * Resolves once `session` has recorded an event `until` matches (at once when it already has);
 * rejects when the execution finishes first.
 */
export function sessionEventSeen(session: AgentSession, until: (event: TraceEvent) => boolean): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const check = (event: TraceEvent): boolean => {
      if (until(event)) resolve();
      else if (event.kind === 'execution.finished')
        reject(new Error('the execution finished before the awaited event'));
      else return false;
      return true;
    };
    const { past, stop } = session.follow((event) => {
      if (check(event)) stop();
    });
    if (past.some(check)) stop();
  });
}
