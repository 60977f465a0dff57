// The install test's setup: a work folder under os.tmpdir() with every published package packed
// into packs/ and, beside it, project/, into which the README quick start's own `npm install` put
// sf-m3 from its tarball (nothing else from this repository), plus the user's MCP server at
// dist/server.js. One setup serves every install test file of a run (sharedInstalledProject.ts
// copies it for each); sqlite3's install script installs the repository's own built binding from a
// local prebuild instead of compiling it (sqlite3Prebuild.ts).
import { cpSync, existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureBuilt } from '../cli.testkit';
import { packAll, type PackedPackage } from './packTarballs';
import { readQuickStart, type QuickStart } from './readmeQuickStart';
import { installedSqlite3Path, packSqlite3Prebuild } from './sqlite3Prebuild';
import { installArguments, log, output, run, userEnv, writeProjectPackageJson } from './userProject';

const MINUTE = 60_000;
/** The user's server's own dependencies (the README's server is theirs, built on the official SDK). */
const SERVER_DEPENDENCIES = ['@modelcontextprotocol/sdk', 'zod'];

/** Published, but no dependency of sf-m3: its own README command installs it, after the quick start. */
export const STORE_POSTGRES = '@sf-m3/store-postgres';

/** What the setup made. */
export interface InstalledProject {
  /** The folder holding `packs/` (the tarballs) and `project/`; removed by the test's afterAll. */
  readonly work: string;
  readonly project: string;
  readonly packed: readonly PackedPackage[];
  readonly quickStart: QuickStart;
  /** Timings the test prints at the end. */
  readonly figures: string[];
}

/** The packed packages the quick start's install brings (all but store-postgres). */
export function quickStartPackages(packed: readonly PackedPackage[]): PackedPackage[] {
  return packed.filter((entry) => entry.name !== STORE_POSTGRES);
}

/**
 * Packs every published package and installs sf-m3 with the README's command into `work` (a new
 * temp folder when omitted; removed again when the setup fails); logs each step.
 */
export async function installQuickStartProject(
  repoRoot: string,
  figures: string[],
  work: string = realpathSync(mkdtempSync(join(tmpdir(), 'm3-install-'))),
): Promise<InstalledProject> {
  const started = Date.now();
  ensureBuilt();
  if (!existsSync(join(repoRoot, 'packages', 'core', 'vendor', 'acp-sdk.cjs'))) {
    throw new Error('packages/core/vendor/acp-sdk.cjs is missing: run `npm run build` before the install test');
  }
  const project = join(work, 'project');
  log(`work folder ${work}`);
  try {
    mkdirSync(join(work, 'packs'));
    mkdirSync(project);
    const packStarted = Date.now();
    const packed = packAll(repoRoot, join(work, 'packs'), userEnv());
    figures.push(`npm pack of ${packed.length} packages: ${((Date.now() - packStarted) / 1000).toFixed(1)} s`);
    for (const entry of packed) log(`packed ${entry.name}@${entry.version}: ${entry.files.length} files`);

    const quickStart = readQuickStart(repoRoot);
    const root = packed.find((entry) => entry.name === 'sf-m3');
    if (root === undefined) throw new Error('npm pack produced no sf-m3 tarball');
    // No override for store-postgres: npm refuses one for a direct dependency, and nothing else needs it.
    writeProjectPackageJson(project, quickStartPackages(packed));
    const prebuild = packSqlite3Prebuild(repoRoot, join(work, 'prebuilds'));
    log(
      prebuild.packed
        ? `sqlite3 ${prebuild.version}: the repository's binding packed as ${prebuild.tarball}`
        : `sqlite3: no local prebuild, so its install script builds it from source: ${prebuild.reason}`,
    );
    const install = await run(
      project,
      'npm',
      installArguments(quickStart.commands[0]!, root, SERVER_DEPENDENCIES),
      14 * MINUTE,
      // Should sqlite3 build from source after all, the optimizer is what takes that build minutes.
      { CFLAGS: '-O0', CXXFLAGS: '-O0', ...prebuild.env },
    );
    if (install.status !== 0) throw new Error(`the README's npm install failed:\n${output(install)}`);
    const sqlite3Path = installedSqlite3Path(project, prebuild);
    log(sqlite3Path);
    figures.push(`npm install (${sqlite3Path}): ${install.seconds.toFixed(1)} s`);

    const fixture = join(repoRoot, 'e2e', 'fixtures', 'install-project');
    mkdirSync(join(project, 'dist'));
    cpSync(join(fixture, 'server.js'), join(project, 'dist', 'server.js'));
    cpSync(join(fixture, 'types'), join(project, 'types'), { recursive: true });
    figures.push(`setup (pack and install): ${((Date.now() - started) / 1000).toFixed(1)} s`);
    return { work, project, packed, quickStart, figures };
  } catch (error) {
    rmSync(work, { recursive: true, force: true });
    throw error;
  }
}
