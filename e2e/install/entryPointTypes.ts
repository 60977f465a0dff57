// `tsc --noEmit` over a file importing every documented entry point (fixture types/entryPoints.ts),
// in the user's project, under the three module resolutions a user's tsconfig may select. Each
// config extends the project's own tsconfig.json (the README's, `module: commonjs`), so the first
// mode is exactly what the README tells a user to write.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { run, type CommandResult } from './userProject';

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

/** Runs the project's own tsc (node_modules/typescript) on one mode's config. */
export function checkEntryPoints(folder: string, mode: ResolutionMode): Promise<CommandResult> {
  const tsc = join(folder, 'node_modules', 'typescript', 'bin', 'tsc');
  return run(folder, process.execPath, [tsc, '-p', writeTypesConfig(folder, mode)], 300_000);
}
