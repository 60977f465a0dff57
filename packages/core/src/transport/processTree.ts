import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';

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

/**
 * The children of `pid` from `/proc/<pid>/task/<tid>/children` (Linux): one small read per thread
 * instead of the whole process table. `[]` once the process is gone; `undefined` when the kernel
 * does not offer the file (built without CONFIG_PROC_CHILDREN), so the caller scans the table.
 */
function procChildren(pid: number): number[] | undefined {
  let tasks: string[];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return []; // the process ended: no children to find
  }
  const children: number[] = [];
  for (const tid of tasks) {
    let text: string;
    try {
      text = readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT' && existsSync(`/proc/${pid}/task/${tid}`))
        return undefined;
      continue; // the thread ended while we were reading
    }
    for (const child of text.split(' ')) if (child !== '' && child !== '\n') children.push(Number(child));
  }
  return children;
}

/** Descendants of `pid` by walking `/proc/<pid>/task/<tid>/children`; `undefined` without that file. */
function descendantsFromProc(pid: number): number[] | undefined {
  const found: number[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    const children = procChildren(queue.shift() as number);
    if (children === undefined) return undefined;
    for (const child of children) {
      if (!found.includes(child)) {
        found.push(child);
        queue.push(child);
      }
    }
  }
  return found;
}

/**
 * Descendants of `pid` from the whole process table (by parent pid): the fallback of
 * `descendantsOf`, exported so its test can check both ways agree.
 * @throws when the process table cannot be read
 */
export function descendantsFromTable(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const { pid: child, ppid: parent } of processTable()) {
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

/**
 * Every living descendant of `pid` (children, grandchildren, ...); best effort, never throws. On
 * Linux it walks the `children` files of `pid` and its descendants; elsewhere (or on a kernel
 * without them) it scans the process table (`/proc/<pid>/stat` or `ps`).
 */
export function descendantsOf(pid: number): number[] {
  try {
    if (process.platform === 'linux') {
      const walked = descendantsFromProc(pid);
      if (walked !== undefined) return walked;
    }
    return descendantsFromTable(pid);
  } catch {
    return [];
  }
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
