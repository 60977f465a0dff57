// What every install test file shares: its own copy of the run's installed project
// (sharedInstalledProject.ts), made before its first test and removed after its last, and the
// commands a user runs there (`npx …`, the README's commands and files as written).
import { existsSync, mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { repoRoot } from '../cli.testkit';
import type { InstalledProject } from './installedProject';
import { installedProjectCopy } from './sharedInstalledProject';
import { killRunning, log, npxIn, type CommandResult } from './userProject';

export const MINUTE = 60_000;

/**
 * Registers this file's setup: a copy of the run's install (`label` names its folder), killed and
 * removed after the file's last test, with the timings the file collected printed then. Returns
 * the project's getter, which throws when the setup failed.
 */
export function installedProjectForFile(label: string): () => InstalledProject {
  const figures: string[] = [];
  let installed: InstalledProject | undefined;
  beforeAll(async () => {
    installed = await installedProjectCopy(repoRoot, label, figures);
  }, 20 * MINUTE);
  afterAll(() => {
    killRunning();
    for (const line of figures) log(line);
    if (installed !== undefined) rmSync(installed.work, { recursive: true, force: true });
  });
  return () => {
    if (installed === undefined) throw new Error('the installed project is not there: its beforeAll failed');
    return installed;
  };
}

/** `npx <args>` in the project, without ever installing a missing command. */
export function npx(installed: InstalledProject, args: string[], timeoutMs = 5 * MINUTE): Promise<CommandResult> {
  return npxIn(installed.project, args, timeoutMs);
}

/** Runs a README command (`npx m3 …`) as written, through npx in the project. */
export function readmeCommand(installed: InstalledProject, command: string): Promise<CommandResult> {
  const [program, ...args] = command.trim().split(/\s+/);
  if (program !== 'npx') throw new Error(`the README command is not an npx command: ${command}`);
  return npx(installed, args);
}

/** Writes the README's quick-start files (jest.config.js, tsconfig.json, the test) as written. */
export function writeReadmeFiles(installed: InstalledProject): void {
  for (const [file, text] of installed.quickStart.files) {
    mkdirSync(dirname(join(installed.project, file)), { recursive: true });
    writeFileSync(join(installed.project, file), text);
    log(`wrote ${file} from README.md`);
  }
}

/** Size and mtime of the project's results database, or null when there is none. */
export function resultsDbStamp(installed: InstalledProject): string | null {
  const file = join(installed.project, '.m3', 'executions.sqlite');
  return existsSync(file) ? `${statSync(file).size}@${statSync(file).mtimeMs}` : null;
}
