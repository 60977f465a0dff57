// The processes that own a running run (the Jest that ran global setup, the `m3 test` around it,
// each shard's Jest), recorded so a later reader can tell a run whose processes are all gone — a
// SIGKILLed `jest` never runs its teardown — from one that is still running.
import { readFileSync, readlinkSync } from 'node:fs';
import { hostname } from 'node:os';

/** One process that owns a run while it runs. */
export interface RunProcess {
  /** What the process is, for messages: `jest`, `m3 test`. */
  readonly role: string;
  /** `os.hostname()`, for people reading the record. */
  readonly host: string;
  /**
   * Where `pid` means something: `<boot id>/<pid namespace>` on Linux (one boot of one machine,
   * one container's pids), `host:<hostname>` elsewhere. A reader in another pid space cannot tell
   * whether the process lives, so it never treats it as gone.
   */
  readonly pidSpace: string;
  readonly pid: number;
  /**
   * When the kernel started the process (clock ticks since boot, `/proc/<pid>/stat` field 22),
   * so a later process given the same pid is not mistaken for it; null where unknown.
   */
  readonly startTicks: number | null;
}

/** The pid space of this process (see `RunProcess.pidSpace`). */
export function currentPidSpace(): string {
  try {
    const boot = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
    const namespace = readlinkSync('/proc/self/ns/pid');
    return `${boot}/${namespace}`;
  } catch {
    return `host:${hostname()}`;
  }
}

/** The state letter and start ticks of `pid` from `/proc/<pid>/stat`, or null where unreadable. */
function procStat(pid: number): { state: string; startTicks: number } | null {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  // "pid (comm) state ppid …": comm may hold spaces and parentheses, so split after the last ')'.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const startTicks = Number(fields[19]);
  return fields[0] === undefined || !Number.isSafeInteger(startTicks) ? null : { state: fields[0], startTicks };
}

/** `pid` (this process by default) as a `RunProcess` with the given role. */
export function runProcessOf(role: string, pid: number = process.pid): RunProcess {
  return { role, host: hostname(), pidSpace: currentPidSpace(), pid, startTicks: procStat(pid)?.startTicks ?? null };
}

/**
 * True only when this reader can be sure `owner` has ended: it lived in this pid space and its pid
 * is free, a zombie, or now another process (a different start time). Anything this reader cannot
 * check (another machine or container, a pid it may not signal) counts as alive.
 */
export function isRunProcessGone(owner: RunProcess): boolean {
  if (owner.pidSpace !== currentPidSpace() || !Number.isSafeInteger(owner.pid) || owner.pid <= 0) return false;
  try {
    process.kill(owner.pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
  const stat = procStat(owner.pid);
  if (stat === null) return false;
  if (stat.state === 'Z' || stat.state === 'X') return true;
  return owner.startTicks !== null && stat.startTicks !== owner.startTicks;
}

/** `jest (pid 123 on ci-4)`, for messages. */
export function describeRunProcess(owner: RunProcess): string {
  return `${owner.role} (pid ${owner.pid} on ${owner.host})`;
}
