// The harness lines of `m3 doctor`: for each harness the project's test files name, whether the
// executable it needs is there. Native CLIs are looked up on PATH (or at the `executable` the
// suite gives) and asked `--version`; an acp manifest's command on PATH or relative to the project.
// Native CLIs on PATH that no test file names get one line with their versions.
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join, resolve } from 'node:path';
import { NATIVE_HARNESS_DEFAULTS, type NativeHarnessDefaults } from '@sf-m3/core/internal';
import { scanHarnessUses, type HarnessUse } from '../project/harnessUsage';
import type { DoctorCheck } from './doctorChecks';
import { probeVersion, type VersionProbe } from './harnessVersionProbe';

/** The CLI each native harness drives and the npm package that installs it: core's one table. */
const NATIVE_HARNESSES: Readonly<Record<string, NativeHarnessDefaults | undefined>> = NATIVE_HARNESS_DEFAULTS;

function isExecutableFile(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** Where `command` runs from: an absolute or project-relative path, else the first match on `path`. */
export function findExecutable(command: string, cwd: string, path: string | undefined): string | null {
  if (isAbsolute(command) || command.includes('/')) {
    const full = resolve(cwd, command);
    return isExecutableFile(full) ? full : null;
  }
  for (const dir of (path ?? '').split(delimiter)) {
    if (dir !== '' && isExecutableFile(join(dir, command))) return join(dir, command);
  }
  return null;
}

/** How the doctor asks an executable its version (a parameter so tests can bound the time). */
export type VersionProber = (executable: string, path: string | undefined) => Promise<VersionProbe>;

const defaultProber: VersionProber = (executable, path) => probeVersion(executable, { path });

async function checkUse(
  kind: string,
  command: string | null,
  files: readonly string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
  prober: VersionProber,
): Promise<DoctorCheck> {
  const name = `harness ${kind}`;
  const where = `named in ${files.join(', ')}`;
  if (kind === 'openai') {
    return { name, status: 'ok', detail: `${where}; no executable needed (it calls an OpenAI-compatible endpoint)` };
  }
  const native = NATIVE_HARNESSES[kind];
  if (kind !== 'acp' && native === undefined) {
    return {
      name,
      status: 'warn',
      detail: `${where}: not a harness kind sf-m3 knows`,
      fix: 'use acp, openai, claude_code, codex, opencode or pi',
    };
  }
  const executable = command ?? native?.executable ?? null;
  if (executable === null) {
    return {
      name,
      status: 'warn',
      detail: `${where}: its manifest command is not a plain string, so it was not checked`,
      fix: 'check that the command exists on PATH',
    };
  }
  const found = findExecutable(executable, cwd, env.PATH);
  if (found !== null && native === undefined) {
    return { name, status: 'ok', detail: `${where}; ${executable} found at ${found}` };
  }
  if (found !== null && native !== undefined) {
    const probe = await prober(found, env.PATH);
    if (probe.ok) return { name, status: 'ok', detail: `${where}; ${executable} found at ${found}: ${probe.version}` };
    return {
      name,
      status: 'warn',
      detail: `${where}; ${executable} found at ${found}, but \`${executable} --version\` ${probe.problem}`,
      fix: `check that \`${found} --version\` runs in a clean HOME; reinstall it with npm install -g ${native.npmPackage} or point the selection's executable at a working ${native.executable}`,
    };
  }
  const fix =
    native !== undefined && command === null
      ? `npm install -g ${native.npmPackage} (or give the selection an executable path)`
      : `install ${executable} on PATH or give its absolute path in the manifest`;
  return {
    name,
    status: 'fail',
    detail: `${where}; ${executable} was not found${executable.includes('/') ? '' : ' on PATH'}`,
    fix,
  };
}

/**
 * The native CLIs on PATH that no test file names, with their versions: one `ok` line (they are not
 * needed), or none when there is none.
 */
async function otherNativeClis(
  named: ReadonlySet<string>,
  cwd: string,
  env: NodeJS.ProcessEnv,
  prober: VersionProber,
): Promise<DoctorCheck[]> {
  const found = Object.values(NATIVE_HARNESS_DEFAULTS).flatMap(({ kind, executable }) => {
    const path = named.has(kind) ? null : findExecutable(executable, cwd, env.PATH);
    return path === null ? [] : [{ kind, path }];
  });
  if (found.length === 0) return [];
  const probes = await Promise.all(found.map(({ path }) => prober(path, env.PATH)));
  const listed = found.map(
    ({ kind, path }, i) => `${kind} ${probes[i]!.ok ? probes[i]!.version : '(--version failed)'} at ${path}`,
  );
  return [{ name: 'native CLIs', status: 'ok', detail: `on PATH, not named by a test file: ${listed.join('; ')}` }];
}

/**
 * One line per harness (and acp command) the project's test files name (one line when they name
 * none), then one line for the native CLIs on PATH they do not name. Probes run in parallel.
 */
export async function checkHarnesses(
  cwd: string,
  env: NodeJS.ProcessEnv,
  prober: VersionProber = defaultProber,
): Promise<DoctorCheck[]> {
  const scan = scanHarnessUses(cwd);
  const named = new Set(scan.uses.map((use) => use.kind));
  const others = otherNativeClis(named, cwd, env, prober);
  if (scan.uses.length === 0) {
    return [
      {
        name: 'harnesses',
        status: 'ok',
        detail: `no test file names a harness (read ${scan.filesRead} test file(s) for harness: '<kind>')`,
      },
      ...(await others),
    ];
  }
  const grouped = new Map<string, { use: HarnessUse; files: Set<string> }>();
  for (const use of scan.uses) {
    const key = `${use.kind}\0${use.command ?? ''}`;
    const entry = grouped.get(key) ?? { use, files: new Set<string>() };
    entry.files.add(use.file);
    grouped.set(key, entry);
  }
  const checks = await Promise.all(
    [...grouped.values()].map(({ use, files }) => checkUse(use.kind, use.command, [...files], cwd, env, prober)),
  );
  return [...checks, ...(await others)];
}
