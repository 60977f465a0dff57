import { isAlive, signalProcess } from '../../transport/processTree';

const POLL_MS = 25;

/** Resolves true once none of `pids` is alive, false when `timeoutMs` passed first. */
export async function waitUntilGone(pids: readonly number[], timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (pids.every((pid) => !isAlive(pid))) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS).unref());
  }
}

/** Signals a process group (`-pgid`), falling back to the process itself; ignores ones already gone. */
export function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    signalProcess(pgid, signal);
  }
}

/**
 * Stops what a capture proxy left behind: SIGTERM to the proxy (it forwards the signal to the
 * server's process group and finishes its capture), then SIGTERM to the server's group, SIGKILL to
 * both after `graceMs`. Resolves true when nothing is left alive.
 */
export async function reapProxyProcesses(
  proxyPid: number | null,
  serverPid: number | null,
  graceMs: number,
): Promise<boolean> {
  const pids = [proxyPid, serverPid].filter((p): p is number => p !== null && p > 0);
  const alive = pids.filter(isAlive);
  if (alive.length === 0) return true;
  if (proxyPid !== null && isAlive(proxyPid)) {
    signalProcess(proxyPid, 'SIGTERM');
    // The proxy stops the server itself and writes its exit records; give it the time it needs.
    if (await waitUntilGone(pids, graceMs)) return true;
  }
  if (serverPid !== null && isAlive(serverPid)) {
    signalGroup(serverPid, 'SIGTERM');
    if (await waitUntilGone(pids, graceMs)) return true;
  }
  for (const pid of pids) if (isAlive(pid)) signalProcess(pid, 'SIGKILL');
  if (serverPid !== null) signalGroup(serverPid, 'SIGKILL');
  return waitUntilGone(pids, graceMs);
}
