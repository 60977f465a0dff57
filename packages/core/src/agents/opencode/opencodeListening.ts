import type { Readable } from 'node:stream';
import { M3Error } from '../../errors';
import type { AgentExit } from '../process/AgentProcess';
import { describeExit } from '../process/agentWaits';

/** The line `opencode serve` prints once it listens (`opencode server listening on http://127.0.0.1:4096`). */
const LISTENING = /listening on (http:\/\/(?:127\.0\.0\.1|localhost|\[::1\]):\d{1,5})\b/;
/** `agent_exited` for an OpenCode server that ended (or could not start) `when` (`while the kit waited for X`). */
export function opencodeExited(exit: AgentExit, operation: string, when: string): M3Error {
  const how = describeExit(exit);
  return new M3Error('agent_exited', `opencode exited (${how}) ${when}`, {
    exitCode: exit.code,
    signal: exit.signal,
    method: operation,
  });
}

/** Bound on what is read from stdout before the listening line. */
const MAX_STARTUP_BYTES = 64 * 1024;

/**
 * Waits for the server's listening line on its stdout and resolves its origin. Rejects with
 * `agent_exited` when the process ends first, `opencode_startup_failed` when stdout ends or says
 * too much without one, or `signal.reason` when the execution ends. Stdout keeps being drained.
 */
export function waitForListening(stdout: Readable, exited: Promise<AgentExit>, signal: AbortSignal): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    let seen = '';
    let settled = false;
    const finish = (error: unknown, origin?: string): void => {
      if (settled) return;
      settled = true;
      stdout.off('data', onData);
      stdout.off('end', onEnd);
      signal.removeEventListener('abort', onAbort);
      stdout.resume();
      if (origin !== undefined) resolve(origin);
      else reject(error);
    };
    const onData = (chunk: Buffer): void => {
      seen += chunk.toString('utf8');
      const match = LISTENING.exec(seen);
      if (match !== null) finish(undefined, match[1]);
      else if (seen.length > MAX_STARTUP_BYTES) {
        finish(
          new M3Error(
            'opencode_startup_failed',
            'opencode serve wrote 64 KiB to stdout without its listening line',
            {},
          ),
        );
      }
    };
    // Stdout ends before the exit is known: an exit shortly after wins (it says more).
    const onEnd = (): void =>
      void Promise.race([exited, new Promise((r) => setTimeout(r, 500).unref())]).then(() =>
        finish(new M3Error('opencode_startup_failed', 'opencode serve closed stdout without its listening line', {})),
      );
    const onAbort = (): void => finish(signal.reason);
    stdout.on('data', onData);
    stdout.once('end', onEnd);
    signal.addEventListener('abort', onAbort, { once: true });
    if (signal.aborted) onAbort();
    void exited.then((exit) => {
      const how =
        exit.spawnError ?? (exit.signal !== null ? `signal ${exit.signal}` : `exit code ${String(exit.code)}`);
      finish(
        new M3Error('agent_exited', `opencode serve exited (${how}) before it listened`, {
          exitCode: exit.code,
          signal: exit.signal,
          method: 'serve',
        }),
      );
    });
  });
}
