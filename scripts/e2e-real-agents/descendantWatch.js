// Which processes a command left behind: samples the descendants of a running child (its CLIs run
// in their own process groups but stay its descendants until they exit or are orphaned), keeping
// each one's start time from /proc so a reused pid is never mistaken for a survivor.
'use strict';

const { readFileSync } = require('node:fs');
const { join } = require('node:path');

/** `/proc/<pid>/stat` start time and command line, or null once the process is gone (or on non-Linux). */
function identity(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (fields[0] === 'Z') return null; // a zombie has exited; only its parent's wait is missing
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ');
    return { start: fields[19], cmdline };
  } catch {
    return null;
  }
}

/**
 * Samples the descendants of `pid` every `intervalMs` until `survivors()` is called, which takes a
 * last sample and resolves every sampled process still running (same pid, same start time) as
 * `{ pid, cmdline }`, plus how many processes were seen.
 */
function watchDescendants(pid, { repo, intervalMs = 200 } = {}) {
  const { descendantsOf } = require(join(repo, 'packages', 'core', 'dist', 'transport', 'processTree.js'));
  const seen = new Map();
  const sample = () => {
    for (const child of descendantsOf(pid)) {
      if (seen.has(child)) continue;
      const id = identity(child);
      if (id !== null) seen.set(child, id);
    }
  };
  sample();
  const timer = setInterval(sample, intervalMs);
  return {
    /** Stops sampling (call it once the command exited) and lists what still runs. */
    survivors() {
      clearInterval(timer);
      const alive = [];
      for (const [child, id] of seen) {
        const now = identity(child);
        if (now !== null && now.start === id.start) alive.push({ pid: child, cmdline: id.cmdline });
      }
      return { seen: seen.size, alive };
    },
    sample,
  };
}

module.exports = { watchDescendants };
