// Helpers for the `m3 init` / `m3 doctor` end-to-end tests: a fixture project copied to a temp
// folder with what `npm install --save-dev sf-m3 jest ts-jest typescript @types/jest` would put in
// its node_modules (links to this repository and its installed packages), and the installed `m3`
// bin run in it, as `npx m3` would.
import { spawnSync, type SpawnSyncOptions } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, statSync, symlinkSync } from 'node:fs';
import { join, relative } from 'node:path';
import { unprivileged } from '../packages/store-sqlite/src/unprivileged.testkit';
import { copyFixture, repoRoot, withCassettesOff } from './cli.testkit';

/** The built example MCP server (the repo's `examples/servers`). */
export const exampleServer = join(repoRoot, 'examples', 'servers', 'dist', 'bin', 'example-server.js');

/** What one `m3` run printed and returned. */
export interface InstalledRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Copies `e2e/fixtures/<name>` to a temp folder and links the packages a user would install. */
export function installedFixture(name: string): string {
  const folder = copyFixture(name);
  mkdirSync(join(folder, 'node_modules', '@types'), { recursive: true });
  symlinkSync(repoRoot, join(folder, 'node_modules', 'sf-m3'), 'dir');
  for (const pkg of ['jest', 'ts-jest', 'typescript', '@types/jest', '@types/node']) {
    symlinkSync(join(repoRoot, 'node_modules', pkg), join(folder, 'node_modules', pkg), 'dir');
  }
  return folder;
}

/**
 * Runs the installed `node_modules/sf-m3/bin/m3.js` in `folder` with a clean environment (no
 * `M3_*` from this run). `unprivileged` runs it so that file permissions apply to it (as root:
 * through `setpriv` without CAP_DAC_OVERRIDE, still root, so it reaches the checkout wherever it is,
 * even under a 0700 `mktemp -d` folder no other user may enter).
 */
export function installedM3(
  folder: string,
  args: string[],
  options: { env?: Record<string, string>; unprivileged?: boolean; timeoutMs?: number } = {},
): InstalledRun {
  // Cassettes off unless the test chooses (contract §24): agents reach their endpoint live, no `__cassettes__`.
  const given = withCassettesOff(options.env ?? {});
  const env: NodeJS.ProcessEnv = { ...process.env, CI: 'true', FORCE_COLOR: '0', ...given };
  for (const name of Object.keys(env)) {
    if ((name.startsWith('M3_') && !(name in given)) || name === 'SF_M3_ROOT' || name === 'JEST_WORKER_ID') {
      delete env[name];
    }
  }
  const spawnOptions: SpawnSyncOptions = { cwd: folder, env, encoding: 'utf8', timeout: options.timeoutMs ?? 150_000 };
  const m3 = [join(folder, 'node_modules', 'sf-m3', 'bin', 'm3.js'), ...args];
  const { command, args: argv } =
    options.unprivileged === true ? unprivileged(process.execPath, m3) : { command: process.execPath, args: m3 };
  const result = spawnSync(command, argv, spawnOptions);
  return { status: result.status, stdout: String(result.stdout), stderr: String(result.stderr) };
}

/** Every file of the project but node_modules, as relative path → content (to compare byte for byte). */
export function projectFiles(folder: string): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      if (name === 'node_modules') continue;
      if (statSync(path).isDirectory()) walk(path);
      else files[relative(folder, path)] = readFileSync(path, 'utf8');
    }
  };
  walk(folder);
  return files;
}
