// sqlite3 in the shared install without compiling it a second time. sqlite3's install script is
// `prebuild-install -r napi || node-gyp rebuild`: prebuild-install first looks for the prebuilt
// binding in a local prebuilds folder (`npm_config_sqlite3_local_prebuilds`, its README's
// "Local prebuilds"), then downloads it from GitHub, which this machine and CI cannot reach, so
// the install fell through to node-gyp and compiled sqlite3 from source — most of the shared
// install's minutes. The repository's own `npm ci` has already built that binding
// (node_modules/sqlite3/build/Release/node_sqlite3.node, N-API, so any Node with that N-API
// version loads it). Packed under the name prebuild-install computes, it is what a user who
// downloads the prebuild gets: the tarballs' `npm install` stays real and sqlite3's own install
// script still runs and installs it. When the binding is missing, or the project installs a
// sqlite3 version other than the repository's, prebuild-install finds no matching file and the
// install builds from source as before; the setup logs which path it took.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';

/** The variable naming the folder prebuild-install searches before it downloads sqlite3's binding. */
export const LOCAL_PREBUILDS_ENV = 'npm_config_sqlite3_local_prebuilds';

/** Where sqlite3's binding sits in its package, and inside a prebuild tarball. */
const BINDING = 'build/Release/node_sqlite3.node';

/** What sqlite3's package.json says that matters here. */
interface Sqlite3Manifest {
  readonly name: string;
  readonly version: string;
  readonly binary?: { readonly napi_versions?: readonly number[] };
}

/** The local prebuild packed for the install, or why there is none (sqlite3 then builds from source). */
export type Sqlite3Prebuild =
  | { readonly packed: true; readonly version: string; readonly tarball: string; readonly env: NodeJS.ProcessEnv }
  | { readonly packed: false; readonly reason: string; readonly env: NodeJS.ProcessEnv };

function readManifest(folder: string): Sqlite3Manifest {
  return JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as Sqlite3Manifest;
}

/** The greatest N-API version sqlite3 is built for that this Node supports (prebuild-install's choice). */
function napiBuildVersion(manifest: Sqlite3Manifest): number | undefined {
  const ours = Number(process.versions.napi);
  const usable = (manifest.binary?.napi_versions ?? []).filter((version) => version <= ours);
  return usable.length === 0 ? undefined : Math.max(...usable);
}

/** `musl` on a Linux without glibc, as prebuild-install names the platform (`linuxmusl`), else ''. */
function libcSuffix(): string {
  if (process.platform !== 'linux') return '';
  const header = (process.report.getReport() as { header?: { glibcVersionRuntime?: string } }).header;
  return header?.glibcVersionRuntime === undefined ? 'musl' : '';
}

/**
 * The file name prebuild-install looks for (`sqlite3-v6.0.1-napi-v6-linux-x64.tar.gz`), computed
 * by the repository's own prebuild-install from sqlite3's package.json.
 */
export function prebuildFileName(sqlite3Folder: string, napiVersion: number): string {
  const manifest = readManifest(sqlite3Folder);
  const util = require(require.resolve('prebuild-install/util', { paths: [sqlite3Folder] })) as {
    getDownloadUrl(options: Record<string, unknown>): string;
  };
  const url = util.getDownloadUrl({
    pkg: manifest,
    runtime: 'napi',
    abi: String(napiVersion),
    platform: process.platform,
    arch: process.arch,
    libc: libcSuffix(),
    'tag-prefix': 'v',
  });
  return basename(url);
}

/**
 * Packs the repository's built sqlite3 binding into `folder` as the prebuild tarball of this
 * platform, and returns the environment that points sqlite3's install script at it; or, when there
 * is nothing to pack, the reason (the install then builds sqlite3 from source).
 */
export function packSqlite3Prebuild(repoRoot: string, folder: string): Sqlite3Prebuild {
  const sqlite3 = join(repoRoot, 'node_modules', 'sqlite3');
  const source = (reason: string): Sqlite3Prebuild => ({ packed: false, reason, env: {} });
  if (!existsSync(join(sqlite3, 'package.json'))) return source('the repository has no node_modules/sqlite3');
  if (!existsSync(join(sqlite3, BINDING))) {
    return source(`the repository's sqlite3 has no ${BINDING} (npm rebuild sqlite3 builds it)`);
  }
  const manifest = readManifest(sqlite3);
  const napi = napiBuildVersion(manifest);
  if (napi === undefined) {
    return source(`sqlite3 ${manifest.version} has no N-API build this Node (N-API ${process.versions.napi}) loads`);
  }
  mkdirSync(folder, { recursive: true });
  const tarball = join(folder, prebuildFileName(sqlite3, napi));
  const tar = spawnSync('tar', ['-czf', tarball, '-C', sqlite3, BINDING], { encoding: 'utf8' });
  if (tar.status !== 0) return source(`packing ${BINDING} failed: ${tar.stderr || tar.error?.message}`);
  return { packed: true, version: manifest.version, tarball, env: { [LOCAL_PREBUILDS_ENV]: folder } };
}

/**
 * Which way the project's sqlite3 got its binding: node-gyp leaves its object files in
 * build/Release/obj.target, an installed prebuild holds the binding alone.
 */
export function installedSqlite3Path(project: string, prebuild: Sqlite3Prebuild): string {
  const installed = join(project, 'node_modules', 'sqlite3');
  const { version } = readManifest(installed);
  if (existsSync(join(installed, 'build', 'Release', 'obj.target'))) {
    const why = prebuild.packed
      ? `the repository's prebuild is for ${prebuild.version}, not the installed ${version}`
      : prebuild.reason;
    return `sqlite3 ${version} built from source (${why})`;
  }
  if (!existsSync(join(installed, BINDING))) return `sqlite3 ${version} installed without its binding`;
  if (!prebuild.packed || prebuild.version !== version) return `sqlite3 ${version} installed a downloaded prebuild`;
  return `sqlite3 ${version} installed the repository's binding as a local prebuild (no compile)`;
}
