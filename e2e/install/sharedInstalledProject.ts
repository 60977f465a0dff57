// One pack-and-install per Jest run, shared by the install test files. The first file to ask
// builds the project (installedProject.ts: pack and npm install, a minute or more) in the run's shared
// folder (SF_M3_E2E_RUN_DIR, made by e2e/run/globalSetup.js) while holding a lock; the others wait
// for it. Each file then works on its own copy (`cp -a`, node_modules hard-linked, so npm's
// relative links and the lock's `file:../packs/…` entries stay valid), which lets the files run in
// parallel workers and change their project (another TypeScript, another package) without seeing
// each other's changes.
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { installQuickStartProject, type InstalledProject } from './installedProject';
import type { PackedPackage } from './packTarballs';
import { readQuickStart } from './readmeQuickStart';
import { log } from './userProject';

/** The variable naming the run's shared folder (e2e/run/globalSetup.js). */
const RUN_DIR_ENV = 'SF_M3_E2E_RUN_DIR';
/** How long a file waits for another file's install before it gives up. */
const WAIT_LIMIT_MS = 20 * 60_000;
const POLL_MS = 500;

/** What the building file leaves for the others: the install's folder, tarballs and figures. */
interface SharedInstall {
  readonly work: string;
  readonly packed: readonly PackedPackage[];
  readonly figures: readonly string[];
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Writes `file` whole or not at all, for the waiting files that read it. */
function writeAtomically(file: string, text: string): void {
  writeFileSync(`${file}.partial`, text);
  renameSync(`${file}.partial`, file);
}

/** Builds the shared install (this file holds the lock) and records how it went for the others. */
async function build(repoRoot: string, shared: string): Promise<SharedInstall> {
  const figures: string[] = [];
  const work = join(shared, 'install');
  mkdirSync(work);
  try {
    const installed = await installQuickStartProject(repoRoot, figures, work);
    const result: SharedInstall = { work, packed: installed.packed, figures };
    writeAtomically(join(shared, 'install.json'), JSON.stringify(result));
    return result;
  } catch (error) {
    writeAtomically(
      join(shared, 'install.failed'),
      error instanceof Error ? (error.stack ?? error.message) : String(error),
    );
    throw error;
  }
}

/** The pid of the worker holding the lock, or null in the moment before it has written it. */
function builderPid(lock: string): number | null {
  const file = join(lock, 'pid');
  return existsSync(file) ? Number(readFileSync(file, 'utf8')) : null;
}

/** Waits for the file holding the lock to finish the shared install. */
async function waitForBuilder(shared: string, lock: string): Promise<SharedInstall> {
  const deadline = Date.now() + WAIT_LIMIT_MS;
  for (;;) {
    if (existsSync(join(shared, 'install.json'))) {
      return JSON.parse(readFileSync(join(shared, 'install.json'), 'utf8')) as SharedInstall;
    }
    if (existsSync(join(shared, 'install.failed'))) {
      throw new Error(
        `the shared install failed in another test file:\n${readFileSync(join(shared, 'install.failed'), 'utf8')}`,
      );
    }
    const pid = builderPid(lock);
    if (pid !== null && !isAlive(pid)) throw new Error(`the test worker ${pid} building the shared install is gone`);
    if (Date.now() > deadline) throw new Error(`no shared install after ${WAIT_LIMIT_MS / 60_000} minutes`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/** The run's shared install: built by the first caller of the run, waited for by the others. */
async function sharedInstall(repoRoot: string, shared: string): Promise<SharedInstall> {
  const lock = join(shared, 'install.lock');
  try {
    mkdirSync(lock);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    if (!existsSync(join(shared, 'install.json'))) log('waiting for the shared install another test file is making');
    return waitForBuilder(shared, lock);
  }
  writeFileSync(join(lock, 'pid'), String(process.pid));
  return build(repoRoot, shared);
}

/**
 * Points the copied project's `overrides` (absolute `file:` paths, see writeProjectPackageJson) at
 * the copy's own tarballs, so a later `npm install` there resolves them beside the copy, as the
 * shared install's did.
 */
function pointOverridesAt(project: string, packed: readonly PackedPackage[]): void {
  const file = join(project, 'package.json');
  const manifest = JSON.parse(readFileSync(file, 'utf8')) as { overrides?: Record<string, string> };
  for (const entry of packed) {
    if (manifest.overrides?.[entry.name] !== undefined) manifest.overrides[entry.name] = `file:${entry.tarball}`;
  }
  writeFileSync(file, `${JSON.stringify(manifest, null, 2)}\n`);
}

/** Runs `cp` with these arguments; throws with its error output when it fails. */
function cp(...args: string[]): void {
  const copy = spawnSync('cp', args, { encoding: 'utf8' });
  if (copy.status !== 0) throw new Error(`copying the shared install failed: cp ${args.join(' ')}: ${copy.stderr}`);
}

/**
 * Copies the shared install's `packs` and `project` into `work`. The project's node_modules (about
 * ten thousand files, most of the bytes) is hard-linked, not copied: 5-27 s of CPU a run went to
 * writing it out five times. That is safe because nothing writes into an installed package's files in
 * place: npm replaces a package by moving its folder aside and unpacking anew (new files), and the
 * tests write only at the project's top level, which is copied. The one file npm rewrites in place
 * inside node_modules, its hidden lockfile (`.package-lock.json`), is copied too.
 */
function copyProject(sharedWork: string, work: string): void {
  cp('-a', join(sharedWork, 'packs'), work);
  const project = join(work, 'project');
  mkdirSync(project);
  for (const entry of readdirSync(join(sharedWork, 'project'))) {
    if (entry !== 'node_modules') cp('-a', join(sharedWork, 'project', entry), project);
  }
  cp('-al', join(sharedWork, 'project', 'node_modules'), project);
  const hiddenLockfile = join(project, 'node_modules', '.package-lock.json');
  if (existsSync(hiddenLockfile))
    cp('--remove-destination', join(sharedWork, 'project', 'node_modules', '.package-lock.json'), hiddenLockfile);
}

/**
 * A project of this test file's own, with the packed packages installed by the README's command:
 * a copy of the run's shared install, or (outside a run with a shared folder) a fresh install.
 * `label` names the copy's folder. The caller removes `work` when it is done.
 */
export async function installedProjectCopy(
  repoRoot: string,
  label: string,
  figures: string[],
): Promise<InstalledProject> {
  const shared = process.env[RUN_DIR_ENV];
  if (shared === undefined || shared === '') return installQuickStartProject(repoRoot, figures);
  const source = await sharedInstall(repoRoot, shared);
  figures.push(...source.figures);
  const started = Date.now();
  const work = realpathSync(mkdtempSync(join(tmpdir(), `m3-install-${label}-`)));
  copyProject(source.work, work);
  figures.push(`copy of the shared install: ${((Date.now() - started) / 1000).toFixed(1)} s`);
  const packed = source.packed.map((entry) => ({ ...entry, tarball: join(work, 'packs', basename(entry.tarball)) }));
  pointOverridesAt(join(work, 'project'), packed);
  return { work, project: join(work, 'project'), packed, quickStart: readQuickStart(repoRoot), figures };
}
