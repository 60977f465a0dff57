import { accessSync, constants, statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import type { ResolvedNativeSelection } from '../native/nativeSelection';

const SCRIPT = /\.(?:c|m)?js$/;

function isRunnableFile(path: string, mode: number): boolean {
  try {
    accessSync(path, mode);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/**
 * How a selection's `executable` runs: as it is, or — for a readable `.js`/`.mjs`/`.cjs` file
 * without the exec bit (e.g. a copied `cli.js` of `@anthropic-ai/claude-agent-sdk`) — with this
 * Node (`process.execPath`), the script becoming the first argument. Anything else is left to the
 * launch, which reports a missing executable.
 */
export function claudeScriptExecutable(selection: ResolvedNativeSelection): {
  selection: ResolvedNativeSelection;
  scriptArgs: string[];
} {
  const given = selection.executable;
  if (given === undefined || !SCRIPT.test(given)) return { selection, scriptArgs: [] };
  const path = isAbsolute(given) ? given : resolve(given);
  if (isRunnableFile(path, constants.X_OK) || !isRunnableFile(path, constants.R_OK))
    return { selection, scriptArgs: [] };
  return { selection: { ...selection, executable: process.execPath }, scriptArgs: [path] };
}
