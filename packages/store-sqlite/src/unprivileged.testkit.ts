// Runs a command the way an ordinary user would, so tests can see file permissions. Root ignores
// them (CAP_DAC_OVERRIDE): there, the command runs through `setpriv` with that capability and
// CAP_DAC_READ_SEARCH dropped from every set, still as root, so files it creates stay removable.
import { spawnSync } from 'node:child_process';

const DROP = '-dac_override,-dac_read_search';

/** Whether this process can run a command that file permissions apply to. */
export function canRunUnprivileged(): boolean {
  if (process.getuid?.() !== 0) return true;
  return spawnSync('setpriv', ['--version'], { encoding: 'utf8' }).status === 0;
}

/** `[command, ...args]` wrapped so that file permissions apply to it (unchanged when not root). */
export function unprivileged(command: string, args: readonly string[]): { command: string; args: string[] } {
  if (process.getuid?.() !== 0) return { command, args: [...args] };
  return { command: 'setpriv', args: [`--inh-caps=${DROP}`, `--bounding-set=${DROP}`, '--', command, ...args] };
}
