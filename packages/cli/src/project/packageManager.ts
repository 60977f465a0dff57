// Which package manager a project uses, so the fixes `m3 doctor` prints are commands the user can
// paste: `pnpm add -D …` in a pnpm project, `yarn add -D …` in a yarn one, `npm install --save-dev …`
// otherwise. Read from the project (its `packageManager` field, then its lockfile), then from the
// tool that started `m3` (`npm_config_user_agent`, set by npx, pnpm exec/dlx and yarn).
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The package managers whose commands `m3` knows. */
export type PackageManagerName = 'npm' | 'pnpm' | 'yarn';

/** A package manager and the commands the doctor's fixes use. */
export interface PackageManager {
  readonly name: PackageManagerName;
  /** How it was told, for the doctor's line: `pnpm-lock.yaml`, `packageManager field`, … */
  readonly source: string;
  /** Adds packages to devDependencies; each spec is quoted when it holds a range. */
  addDev(...specs: string[]): string;
  /** Builds a native dependency's install script again (sqlite3). */
  rebuild(name: string): string;
  /** Runs a binary of the project's dependencies: `npx m3 init`, `pnpm exec m3 init`, `yarn m3 init`. */
  exec(command: string): string;
  /**
   * What allows a dependency's install script to run: pnpm 10+ runs none it was not told to
   * (`pnpm approve-builds`); npm 11.16+ records it in package.json's `allowScripts`
   * (`npm approve-scripts`; advisory in npm 11, required in npm 12); yarn runs them.
   */
  allowBuild(name: string): string;
}

const LOCKFILES: readonly (readonly [string, PackageManagerName])[] = [
  ['pnpm-lock.yaml', 'pnpm'],
  ['yarn.lock', 'yarn'],
  ['package-lock.json', 'npm'],
  ['npm-shrinkwrap.json', 'npm'],
];

const quote = (spec: string): string => (/[\s<>|*^~]/.test(spec) ? `"${spec}"` : spec);

/** The commands of `name`, told by `source`. */
export function packageManagerOf(name: PackageManagerName, source: string): PackageManager {
  const specs = (list: string[]): string => list.map(quote).join(' ');
  switch (name) {
    case 'pnpm':
      return {
        name,
        source,
        addDev: (...list) => `pnpm add -D ${specs(list)}`,
        rebuild: (pkg) => `pnpm rebuild ${pkg}`,
        exec: (command) => `pnpm exec ${command}`,
        allowBuild: (pkg) => `pnpm approve-builds ${pkg}`,
      };
    case 'yarn':
      return {
        name,
        source,
        addDev: (...list) => `yarn add -D ${specs(list)}`,
        rebuild: (pkg) => `yarn rebuild ${pkg}`,
        exec: (command) => `yarn ${command}`,
        allowBuild: (pkg) => `yarn rebuild ${pkg}`,
      };
    default:
      return {
        name: 'npm',
        source,
        addDev: (...list) => `npm install --save-dev ${specs(list)}`,
        rebuild: (pkg) => `npm rebuild ${pkg}`,
        exec: (command) => `npx ${command}`,
        allowBuild: (pkg) => `npm approve-scripts ${pkg}, then npm rebuild ${pkg}`,
      };
  }
}

function fromPackageJson(dir: string): PackageManager | null {
  try {
    const json = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { packageManager?: unknown };
    const field = typeof json.packageManager === 'string' ? json.packageManager.split('@')[0] : undefined;
    return field === 'npm' || field === 'pnpm' || field === 'yarn'
      ? packageManagerOf(field, 'packageManager field')
      : null;
  } catch {
    return null;
  }
}

/**
 * The package manager of the project in `cwd`: its `packageManager` field, else the nearest
 * lockfile in it or a folder above (workspaces keep one lockfile at their root), else the agent
 * that ran `m3`, else npm.
 */
export function detectPackageManager(cwd: string, env: NodeJS.ProcessEnv = process.env): PackageManager {
  const declared = fromPackageJson(cwd);
  if (declared !== null) return declared;
  for (let dir = cwd; ; dir = dirname(dir)) {
    for (const [file, name] of LOCKFILES) {
      if (existsSync(join(dir, file))) return packageManagerOf(name, file);
    }
    if (dirname(dir) === dir) break;
  }
  const agent = /^(npm|pnpm|yarn)\//.exec(env.npm_config_user_agent ?? '')?.[1] as PackageManagerName | undefined;
  return agent === undefined ? packageManagerOf('npm', 'default') : packageManagerOf(agent, 'npm_config_user_agent');
}
