import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/** One row of the process table. */
interface ProcessRow {
  pid: number;
  ppid: number;
  pgid: number;
  zombie: boolean;
}

/** State, parent and group of `/proc/<pid>/stat` (Linux), or `undefined` once the process is gone. */
function procStat(pid: number | string): Omit<ProcessRow, 'pid'> | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // The command name (field 2) may hold spaces, so parse after the last ')': state, ppid, pgrp, ...
  const [state, ppid, pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { ppid: Number(ppid), pgid: Number(pgrp), zombie: state === 'Z' };
}

/**
 * Every process, read from /proc (Linux) or `ps` (other POSIX systems); none on Windows.
 * @throws when the process table cannot be read
 */
function processTable(): ProcessRow[] {
  const rows: ProcessRow[] = [];
  if (process.platform === 'linux') {
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      const stat = procStat(entry); // undefined: the process ended while we were reading
      if (stat !== undefined) rows.push({ pid: Number(entry), ...stat });
    }
  } else if (process.platform !== 'win32') {
    const out = execFileSync('ps', ['-A', '-o', 'pid=,ppid=,pgid=,stat='], { encoding: 'utf8', timeout: 2000 });
    for (const line of out.split('\n')) {
      const [pid, ppid, pgid, state] = line.trim().split(/\s+/);
      if (state === undefined || !Number.isFinite(Number(pid)) || !Number.isFinite(Number(ppid))) continue;
      rows.push({ pid: Number(pid), ppid: Number(ppid), pgid: Number(pgid), zombie: state.startsWith('Z') });
    }
  }
  return rows;
}

/** Every living descendant of `pid` (children, grandchildren, ...); best effort, never throws. */
export function descendantsOf(pid: number): number[] {
  let table: ProcessRow[];
  try {
    table = processTable();
  } catch {
    return [];
  }
  const children = new Map<number, number[]>();
  for (const { pid: child, ppid: parent } of table) {
    const list = children.get(parent) ?? [];
    list.push(child);
    children.set(parent, list);
  }
  const found: number[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    const next = queue.shift() as number;
    for (const child of children.get(next) ?? []) {
      if (!found.includes(child)) {
        found.push(child);
        queue.push(child);
      }
    }
  }
  return found;
}

/** True while a process with this pid exists (zombies count as gone on Linux). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  if (process.platform === 'linux') {
    const stat = procStat(pid);
    return stat !== undefined && !stat.zombie;
  }
  return true;
}

/** Sends `signal` to `pid`, ignoring a process that is already gone. */
export function signalProcess(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // Already gone (ESRCH) or not ours (EPERM): nothing more to do.
  }
}

/** Living (non-zombie) members of the process group `pgid`; best effort, never throws. */
export function processGroupMembers(pgid: number): number[] {
  try {
    return processTable()
      .filter((row) => row.pgid === pgid && !row.zombie)
      .map((row) => row.pid);
  } catch {
    return []; // no process table to read: report none
  }
}
