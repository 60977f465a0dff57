// `m3 init`: sets a project up for sf-m3 — the preset in its Jest config, `sf-m3/globals` in its
// tsconfig types, `.m3/` in .gitignore and a starter suite under tests/. Every step first plans;
// files are written only when no step needs the user, so a refused init leaves the project as it
// was. Existing files are edited in place, never replaced; a second run finds everything done.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { CliIO } from '../CliIO';
import { validateUrl } from '../options/serverGroups';
import { UsageError } from '../options/UsageError';
import type { InitStep } from '../project/InitStep';
import { planGitignore } from '../project/gitignore';
import { detectPackageManager } from '../project/packageManager';
import { planJestConfig } from '../project/jestConfig';
import { DEFAULT_SUITE, planStarter, type StarterServer } from '../project/starterSuite';
import { planTsconfig } from '../project/tsconfigTypes';

/** Options of `m3 init` as commander collected them. */
export interface InitCommandInput {
  command?: string;
  arg?: string[];
  url?: string;
  suite?: string;
}

/** The validated server and suite of `m3 init`. */
export interface InitOptions {
  readonly server: StarterServer | null;
  readonly suite: string;
}

/** Checks the flags; every problem is a `UsageError` naming the flag. */
export function validateInitOptions(input: InitCommandInput): InitOptions {
  const args = input.arg ?? [];
  if (input.command !== undefined && input.url !== undefined) {
    throw new UsageError('--url', 'give either --command (a stdio server) or --url (an HTTP server), not both');
  }
  if (args.length > 0 && input.command === undefined) {
    throw new UsageError('--arg', 'belongs to --command, e.g. m3 init --command node --arg dist/server.js');
  }
  if (input.command !== undefined && input.command.trim() === '') {
    throw new UsageError('--command', 'must not be empty, e.g. --command node');
  }
  const suite = (input.suite ?? DEFAULT_SUITE).trim();
  if (suite === '' || suite.length > 256) {
    throw new UsageError('--suite', 'must be a name of 1 to 256 characters, e.g. --suite shipping');
  }
  const server: StarterServer | null =
    input.url !== undefined
      ? { transport: 'http', url: validateUrl(input.url) }
      : input.command !== undefined
        ? { transport: 'stdio', command: input.command, args }
        : null;
  return { server, suite };
}

function canRunTypeScript(cwd: string): boolean {
  try {
    require.resolve('ts-jest', { paths: [cwd] });
    return true;
  } catch {
    return false;
  }
}

/** Runs one step's planner; a file it cannot parse makes the step `blocked` instead of failing init. */
function planned(step: string, files: string, plan: () => InitStep): InitStep {
  try {
    return plan();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return {
      step,
      state: 'blocked',
      message: `could not read ${files}: ${message.split('\n')[0]}`,
      details: ['fix its syntax (JSON, or JSON with comments for tsconfig.json), then run `npx m3 init` again.'],
    };
  }
}

/** Plans every step for the project in `cwd`, in the order they are printed. */
export function planInit(cwd: string, options: InitOptions): InitStep[] {
  let selects: readonly string[] = [];
  const jest = planned('jest config', 'package.json or the Jest config', () => {
    const result = planJestConfig(cwd);
    selects = result.facts?.selects ?? [];
    return result.step;
  });
  const language = canRunTypeScript(cwd) ? 'ts' : 'js';
  return [
    jest,
    planned('tsconfig', 'tsconfig.json', () => planTsconfig(cwd)),
    planned('.gitignore', '.gitignore', () => planGitignore(cwd)),
    planned('starter suite', 'tests/', () => planStarter(cwd, options.suite, options.server, language, selects)),
  ];
}

function line(step: InitStep, text: string): string {
  return `${step.step.padEnd(13)}  ${text}\n`;
}

function writePlanned(cwd: string, step: InitStep): void {
  const write = step.write!;
  const path = join(cwd, write.path);
  mkdirSync(dirname(path), { recursive: true });
  // `wx` for new files: a file that appeared since planning is never overwritten.
  writeFileSync(path, write.content, { flag: write.create ? 'wx' : 'w' });
}

/** Runs `m3 init` in `io.cwd`; returns the exit status (0 done, 2 a step needs the user). */
export async function runInitCommand(input: InitCommandInput, io: CliIO): Promise<number> {
  const options = validateInitOptions(input);
  if (!existsSync(join(io.cwd, 'package.json'))) {
    io.stderr(
      `m3 init: no package.json in ${io.cwd}: run it in your project's folder (or create one with \`npm init -y\`)\n`,
    );
    return 2;
  }
  const steps = planInit(io.cwd, options);
  const blocked = steps.filter((s) => s.state === 'blocked');
  if (blocked.length > 0) {
    for (const step of steps) {
      const text =
        step.state === 'change' ? `not written while a step needs you (would be: ${step.message})` : step.message;
      io.stdout(line(step, text));
      if (step.state === 'blocked') for (const detail of step.details ?? []) io.stdout(`${' '.repeat(15)}${detail}\n`);
    }
    io.stderr(`m3 init: nothing was written, because ${blocked.map((s) => s.step).join(' and ')} needs you (above)\n`);
    return 2;
  }
  for (const step of steps) {
    if (step.state === 'change') writePlanned(io.cwd, step);
    io.stdout(line(step, step.message));
    for (const detail of step.details ?? []) io.stdout(`${' '.repeat(15)}${detail}\n`);
  }
  const pm = detectPackageManager(io.cwd, io.env);
  if (steps.every((s) => s.state === 'done')) {
    io.stdout(`nothing to change: this project is set up for sf-m3 (run \`${pm.exec('m3 doctor')}\` to check it)\n`);
  } else if (options.server === null) {
    io.stdout(`next: fill in your server in the starter suite, remove \`.skip\`, then run \`${pm.exec('m3 test')}\`\n`);
  } else {
    io.stdout(`next: ${pm.exec('m3 test')}\n`);
  }
  return 0;
}
