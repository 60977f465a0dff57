// The checks of `m3 doctor`, each answering one question about the project in `cwd` with `ok`,
// `warn` or `fail` and, when not ok, the fix. Everything is read from the project as installed
// (resolved from its folder, as Jest and ts-jest will resolve it), never from this CLI's own copy.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { findInstalledPackage, stringMap, type InstalledPackage } from '../project/installedPackage';
import { isSfM3Preset } from '../project/InitStep';
import { packageManagerOf, type PackageManager } from '../project/packageManager';
import { ENVIRONMENT_NOTE, jestConfigFiles, readJestConfigFacts } from '../project/jestConfig';
import { satisfies } from '../project/semverRange';
import { effectiveTypes, SF_M3_GLOBALS } from '../project/tsconfigTypes';

/** One line of `m3 doctor`. */
export interface DoctorCheck {
  readonly name: string;
  readonly status: 'ok' | 'warn' | 'fail';
  readonly detail: string;
  /** What to do, when the status is not ok. */
  readonly fix?: string;
}

const ok = (name: string, detail: string): DoctorCheck => ({ name, status: 'ok', detail });
const fail = (name: string, detail: string, fix: string): DoctorCheck => ({ name, status: 'fail', detail, fix });
const warn = (name: string, detail: string, fix: string): DoctorCheck => ({ name, status: 'warn', detail, fix });

/** npm's commands, for callers that did not detect the project's package manager. */
const NPM = packageManagerOf('npm', 'default');

/** sf-m3 as the project installed it (or the project itself, when it is sf-m3). */
export function findSfM3(cwd: string): InstalledPackage | null {
  const own = join(cwd, 'package.json');
  try {
    const json = JSON.parse(readFileSync(own, 'utf8')) as Record<string, unknown>;
    if (json.name === 'sf-m3') return { name: 'sf-m3', dir: cwd, version: String(json.version ?? ''), json };
  } catch {
    // No package.json, or one that is not JSON: not the sf-m3 repository itself.
  }
  return findInstalledPackage('sf-m3', cwd);
}

/** `sf-m3` installed, and the `@sf-m3/*` packages it brings resolvable from it. */
export function checkSfM3(sfM3: InstalledPackage | null, pm: PackageManager = NPM): DoctorCheck {
  if (sfM3 === null) return fail('sf-m3', 'not installed in this project', pm.addDev('sf-m3'));
  const missing = Object.keys(stringMap(sfM3.json, 'dependencies'))
    .filter((name) => name.startsWith('@sf-m3/'))
    .filter((name) => findInstalledPackage(name, sfM3.dir) === null);
  if (missing.length > 0) {
    return fail(
      'sf-m3',
      `${sfM3.version} is installed but ${missing.join(', ')} is missing`,
      `${pm.addDev('sf-m3')} (again)`,
    );
  }
  return ok('sf-m3', `${sfM3.version}`);
}

/** This Node against sf-m3's `engines.node`. */
export function checkNode(sfM3: InstalledPackage | null, nodeVersion: string = process.version): DoctorCheck {
  const range = sfM3 === null ? undefined : stringMap(sfM3.json, 'engines').node;
  if (range === undefined) return ok('node', `${nodeVersion} (sf-m3 declares no engines.node)`);
  const fits = satisfies(nodeVersion, range);
  if (fits === true) return ok('node', `${nodeVersion} (sf-m3 needs ${range})`);
  if (fits === null)
    return warn('node', `cannot compare ${nodeVersion} with "${range}"`, `use a Node that satisfies ${range}`);
  return fail(
    'node',
    `${nodeVersion}, but sf-m3 needs ${range}`,
    `install a Node that satisfies ${range} (e.g. with nvm)`,
  );
}

/** The peer ranges for `name`: sf-m3's and its packages' peerDependencies, and ts-jest's. */
function peerRanges(name: string, sfM3: InstalledPackage | null, cwd: string): { by: string; range: string }[] {
  const declarers: InstalledPackage[] = [];
  if (sfM3 !== null) {
    declarers.push(sfM3);
    for (const dep of Object.keys(stringMap(sfM3.json, 'dependencies')).filter((d) => d.startsWith('@sf-m3/'))) {
      const pkg = findInstalledPackage(dep, sfM3.dir);
      if (pkg !== null) declarers.push(pkg);
    }
  }
  const tsJest = findInstalledPackage('ts-jest', cwd);
  if (tsJest !== null && name !== 'ts-jest') declarers.push(tsJest);
  return declarers.flatMap((pkg) => {
    const range = stringMap(pkg.json, 'peerDependencies')[name];
    return range === undefined ? [] : [{ by: `${pkg.name} ${pkg.version}`, range }];
  });
}

/** One of jest, ts-jest, typescript: installed in the project, at a version the peer ranges allow. */
export function checkPeer(
  name: string,
  sfM3: InstalledPackage | null,
  cwd: string,
  pm: PackageManager = NPM,
): DoctorCheck {
  const installed = findInstalledPackage(name, cwd);
  if (installed === null) {
    const meta = sfM3?.json.peerDependenciesMeta as Record<string, { optional?: boolean }> | undefined;
    if (meta?.[name]?.optional === true) {
      return warn(name, 'not installed (sf-m3 marks it optional: .ts tests need it)', pm.addDev(name));
    }
    return fail(name, 'not installed in this project', pm.addDev(name));
  }
  const ranges = peerRanges(name, sfM3, cwd);
  if (ranges.length === 0) {
    // Nothing to compare with is not a problem the user can fix: say so and pass.
    return ok(name, `${installed.version} (no installed package declares a peer range for it)`);
  }
  const misfits = ranges.filter((r) => satisfies(installed.version, r.range) !== true);
  const wants = ranges.map((r) => `${r.by} wants ${r.range}`).join('; ');
  if (misfits.length > 0) {
    const first = misfits[0]!;
    return fail(name, `${installed.version}, but ${wants}`, pm.addDev(`${name}@${first.range}`));
  }
  return ok(name, `${installed.version} (${wants})`);
}

/** The project's Jest config names the sf-m3 preset. */
export function checkJestConfig(cwd: string, pm: PackageManager = NPM): DoctorCheck {
  const files = jestConfigFiles(cwd);
  if (files.length === 0)
    return fail('jest config', 'none found', `${pm.exec('m3 init')} (it creates jest.config.js with preset: 'sf-m3')`);
  if (files.length > 1)
    return fail('jest config', `Jest refuses more than one: ${files.join(', ')}`, 'keep one of them');
  const file = files[0]!;
  let facts;
  try {
    facts = readJestConfigFacts(file, readFileSync(join(cwd, file), 'utf8'));
  } catch (error) {
    return fail('jest config', `${file} cannot be read: ${(error as Error).message}`, 'fix its syntax');
  }
  if (typeof facts === 'string') {
    return warn('jest config', `${file}: cannot tell its preset (${facts})`, "make sure it sets preset: 'sf-m3'");
  }
  if (typeof facts.preset === 'string' && isSfM3Preset(facts.preset)) {
    if (facts.setsEnvironment)
      return warn(
        'jest config',
        `${file} has preset: '${facts.preset}' but ${ENVIRONMENT_NOTE}`,
        'remove testEnvironment',
      );
    return ok('jest config', `${file} has preset: '${facts.preset}'`);
  }
  if (facts.projectHasSfM3) return ok('jest config', `a project in ${file} has preset: 'sf-m3'`);
  if (facts.preset !== null && typeof facts.preset !== 'string') {
    return warn(
      'jest config',
      `${file} sets its preset with an expression (${facts.preset.expression})`,
      "make sure it names sf-m3's jest-preset.js",
    );
  }
  const current = facts.preset === null ? 'no preset' : `preset '${facts.preset}'`;
  return fail(
    'jest config',
    `${file} has ${current}`,
    `add preset: 'sf-m3' (${pm.exec('m3 init')} does; it explains how to combine presets)`,
  );
}

/** `sf-m3/jest-preset` resolves from the project, loads, and its environment and setup files load. */
export function checkPreset(cwd: string, pm: PackageManager = NPM): DoctorCheck {
  let presetPath: string;
  try {
    presetPath = require.resolve('sf-m3/jest-preset', { paths: [cwd] });
  } catch {
    return fail('preset', 'sf-m3/jest-preset does not resolve from this project', pm.addDev('sf-m3'));
  }
  try {
    const preset = require(presetPath) as Record<string, unknown>;
    const environment = preset.testEnvironment;
    if (typeof environment !== 'string')
      return fail('preset', `${presetPath} sets no testEnvironment`, 'reinstall sf-m3');
    require(environment);
    for (const file of [
      preset.globalSetup,
      preset.globalTeardown,
      ...((preset.setupFilesAfterEnv as unknown[]) ?? []),
    ]) {
      if (typeof file === 'string' && !existsSync(file)) return fail('preset', `${file} is missing`, 'reinstall sf-m3');
    }
    return ok('preset', `${presetPath} and its environment load`);
  } catch (error) {
    const message = (error as Error).message.split('\n')[0];
    return fail('preset', `the preset or its environment does not load: ${message}`, `${pm.addDev('sf-m3')} (again)`);
  }
}

/** The native sqlite3 module the results store uses loads in this Node. */
export function checkSqlite(sfM3: InstalledPackage | null, cwd: string, pm: PackageManager = NPM): DoctorCheck {
  const store = sfM3 === null ? null : findInstalledPackage('@sf-m3/store-sqlite', sfM3.dir);
  const sqlite = findInstalledPackage('sqlite3', store?.dir ?? cwd);
  if (sqlite === null) return fail('sqlite3', 'not installed', `${pm.addDev('sf-m3')} (it depends on sqlite3)`);
  try {
    require(sqlite.dir);
    return ok(
      'sqlite3',
      `${sqlite.version} loads (native module for Node ${process.versions.node}, ${process.platform}-${process.arch})`,
    );
  } catch (error) {
    const message = (error as Error).message.split('\n')[0];
    // No build output at all: its install script never ran (pnpm runs none it was not told to).
    if (!existsSync(join(sqlite.dir, 'build'))) {
      return fail(
        'sqlite3',
        `${sqlite.version} was never built: its install script did not run (${pm.name} did not allow it)`,
        `${pm.allowBuild('sqlite3')} (building from source needs python3, make and a C++ compiler)`,
      );
    }
    return fail(
      'sqlite3',
      `${sqlite.version} does not load: ${message}`,
      `${pm.rebuild('sqlite3')} (building from source needs python3, make and a C++ compiler for ${process.platform}-${process.arch})`,
    );
  }
}

/** tsconfig.json's `compilerOptions.types` include `sf-m3/globals` (and `jest`). */
export function checkTsconfigTypes(cwd: string, pm: PackageManager = NPM): DoctorCheck {
  const file = join(cwd, 'tsconfig.json');
  if (!existsSync(file)) {
    return fail(
      'tsconfig types',
      'no tsconfig.json, so ts-jest does not know the sf-m3 globals',
      `${pm.exec('m3 init')} (it writes the README tsconfig)`,
    );
  }
  let types;
  try {
    types = effectiveTypes(file);
  } catch (error) {
    return fail('tsconfig types', `tsconfig.json cannot be read: ${(error as Error).message}`, 'fix its syntax');
  }
  if (types.unreadable !== null) {
    return warn(
      'tsconfig types',
      `tsconfig.json extends ${types.unreadable}, which cannot be read`,
      `make sure its types include "${SF_M3_GLOBALS}"`,
    );
  }
  const add = `add "${SF_M3_GLOBALS}" to compilerOptions.types in tsconfig.json (${pm.exec('m3 init')} does)`;
  if (types.types === null) return fail('tsconfig types', 'compilerOptions.types is not set', add);
  const list = JSON.stringify(types.types);
  if (!types.types.includes(SF_M3_GLOBALS)) return fail('tsconfig types', `compilerOptions.types is ${list}`, add);
  if (!types.types.includes('jest') && !types.types.includes('@types/jest')) {
    return warn(
      'tsconfig types',
      `compilerOptions.types is ${list}, without "jest"`,
      `add "jest" (and ${pm.addDev('@types/jest')})`,
    );
  }
  return ok('tsconfig types', `${list}`);
}
