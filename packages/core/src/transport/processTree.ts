import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/** Parent pid of every process, read from /proc (Linux) or `ps` (other POSIX systems). */
function parentMap(): Map<number, number> {
  const parents = new Map<number, number>();
  if (process.platform === 'linux') {
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
        // Field 4 is the ppid; the command name (field 2) may hold spaces, so parse after ')'.
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        parents.set(Number(entry), Number(fields[1]));
      } catch {
        // The process ended while we were reading.
      }
    }
    return parents;
  }
  if (process.platform === 'win32') return parents;
  const out = execFileSync('ps', ['-A', '-o', 'pid=,ppid='], { encoding: 'utf8', timeout: 2000 });
  for (const line of out.split('\n')) {
    const [pid, ppid] = line.trim().split(/\s+/).map(Number);
    if (pid !== undefined && ppid !== undefined && Number.isFinite(pid) && Number.isFinite(ppid))
      parents.set(pid, ppid);
  }
  return parents;
}

/** Every living descendant of `pid` (children, grandchildren, ...); best effort, never throws. */
export function descendantsOf(pid: number): number[] {
  let parents: Map<number, number>;
  try {
    parents = parentMap();
  } catch {
    return [];
  }
  const children = new Map<number, number[]>();
  for (const [child, parent] of parents) {
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
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
    } catch {
      return false;
    }
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
  const members: number[] = [];
  try {
    if (process.platform === 'linux') {
      for (const entry of readdirSync('/proc')) {
        if (!/^\d+$/.test(entry)) continue;
        try {
          const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
          // After the command name: state, ppid, pgrp, ...
          const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
          if (Number(pgrp) === pgid && state !== 'Z') members.push(Number(entry));
        } catch {
          // The process ended while we were reading.
        }
      }
    } else if (process.platform !== 'win32') {
      const out = execFileSync('ps', ['-A', '-o', 'pid=,pgid=,stat='], { encoding: 'utf8', timeout: 2000 });
      for (const line of out.split('\n')) {
        const [pid, group, state] = line.trim().split(/\s+/);
        if (Number(group) === pgid && state !== undefined && !state.startsWith('Z')) members.push(Number(pid));
      }
    }
  } catch {
    // No process table to read: report none.
  }
  return members;
}
