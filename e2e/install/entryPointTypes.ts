// The entry-point type check: a file importing every documented entry point (fixture
// types/entryPoints.ts), in the user's project, with the project's own TypeScript, under the three
// module resolutions a user's tsconfig may select. Each config extends the project's own
// tsconfig.json (the README's, `module: commonjs`), so the first mode is exactly what the README
// tells a user to write. One process checks all three (typeCheckOwnFiles.js): the user's file and
// sf-m3's declarations, as tsc reports them, not other packages' declarations (not sf-m3's to
// answer for, and most of tsc's time).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { output, run } from './userProject';

/** A module setting of the user's tsconfig and the resolution it implies. */
export interface ResolutionMode {
  /** Short name (`commonjs`, `node16`, `bundler`). */
  readonly name: string;
  /** compilerOptions added to the README's tsconfig. */
  readonly compilerOptions: Readonly<Record<string, string>>;
}

/** The resolutions contract §16 promises: the README's (`module: commonjs`), node16 and bundler. */
export const RESOLUTION_MODES: readonly ResolutionMode[] = [
  { name: 'commonjs', compilerOptions: {} },
  { name: 'node16', compilerOptions: { module: 'node16', moduleResolution: 'node16' } },
  { name: 'bundler', compilerOptions: { module: 'preserve', moduleResolution: 'bundler' } },
];

/** One mode's result (typeCheckOwnFiles.js): tsc's exit code and diagnostics for the own files. */
export interface EntryPointCheck {
  readonly tsconfig: string;
  readonly code: number;
  readonly output: string;
  /** The files checked (the user's and sf-m3's), relative to the project. */
  readonly checked: readonly string[];
  /** How many other packages' files the program loaded but did not check. */
  readonly skipped: number;
}

/** Checks one process's worth of tsconfigs in the project with its own TypeScript. */
const TYPE_CHECK_OWN_FILES = join(__dirname, 'typeCheckOwnFiles.js');

/** Writes `tsconfig.types-<mode>.json` (extends ./tsconfig.json, checks types/entryPoints.ts only). */
export function writeTypesConfig(folder: string, mode: ResolutionMode): string {
  const file = `tsconfig.types-${mode.name}.json`;
  const config = {
    extends: './tsconfig.json',
    compilerOptions: { ...mode.compilerOptions, noEmit: true },
    files: ['types/entryPoints.ts'],
  };
  writeFileSync(join(folder, file), `${JSON.stringify(config, null, 2)}\n`);
  return file;
}

/** Type-checks the entry points under every mode in one process; the results by mode name. */
export async function checkEntryPoints(folder: string): Promise<ReadonlyMap<string, EntryPointCheck>> {
  const configs = RESOLUTION_MODES.map((mode) => writeTypesConfig(folder, mode));
  const result = await run(folder, process.execPath, [TYPE_CHECK_OWN_FILES, ...configs], 300_000);
  if (result.status !== 0) throw new Error(`${TYPE_CHECK_OWN_FILES} failed:\n${output(result)}`);
  const checks = JSON.parse(result.stdout) as EntryPointCheck[];
  return new Map(RESOLUTION_MODES.map((mode, index) => [mode.name, checks[index]!]));
}
