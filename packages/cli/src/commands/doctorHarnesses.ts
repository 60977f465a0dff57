// The harness lines of `m3 doctor`: for each harness the project's test files name, whether the
// executable it needs is there. Native CLIs are looked up on PATH (or at the `executable` the
// suite gives); an acp manifest's command on PATH or relative to the project.
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join, resolve } from 'node:path';
import { scanHarnessUses, type HarnessUse } from '../project/harnessUsage';
import type { DoctorCheck } from './doctorChecks';

/** The CLI each native harness drives, and the npm package that installs it. */
export const NATIVE_HARNESS_EXECUTABLES: Readonly<Record<string, { executable: string; npm: string }>> = {
  claude_code: { executable: 'claude', npm: '@anthropic-ai/claude-code' },
  codex: { executable: 'codex', npm: '@openai/codex' },
  opencode: { executable: 'opencode', npm: 'opencode-ai' },
  pi: { executable: 'pi', npm: '@mariozechner/pi-coding-agent' },
};

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

function checkUse(
  kind: string,
  command: string | null,
  files: readonly string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
): DoctorCheck {
  const name = `harness ${kind}`;
  const where = `named in ${files.join(', ')}`;
  if (kind === 'openai') {
    return { name, status: 'ok', detail: `${where}; no executable needed (it calls an OpenAI-compatible endpoint)` };
  }
  const native = NATIVE_HARNESS_EXECUTABLES[kind];
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
  if (found !== null) return { name, status: 'ok', detail: `${where}; ${executable} found at ${found}` };
  const fix =
    native !== undefined && command === null
      ? `npm install -g ${native.npm} (or give the selection an executable path)`
      : `install ${executable} on PATH or give its absolute path in the manifest`;
  return {
    name,
    status: 'fail',
    detail: `${where}; ${executable} was not found${executable.includes('/') ? '' : ' on PATH'}`,
    fix,
  };
}

/** One line per harness (and acp command) the project's test files name; one line when they name none. */
export function checkHarnesses(cwd: string, env: NodeJS.ProcessEnv): DoctorCheck[] {
  const scan = scanHarnessUses(cwd);
  if (scan.uses.length === 0) {
    return [
      {
        name: 'harnesses',
        status: 'ok',
        detail: `no test file names a harness (read ${scan.filesRead} test file(s) for harness: '<kind>')`,
      },
    ];
  }
  const grouped = new Map<string, { use: HarnessUse; files: Set<string> }>();
  for (const use of scan.uses) {
    const key = `${use.kind}\0${use.command ?? ''}`;
    const entry = grouped.get(key) ?? { use, files: new Set<string>() };
    entry.files.add(use.file);
    grouped.set(key, entry);
  }
  return [...grouped.values()].map(({ use, files }) => checkUse(use.kind, use.command, [...files], cwd, env));
}
