// The `.gitignore` step of `m3 init`: `.m3/` holds the results database and the reports of every
// run, which belong to the machine that ran them, not to the repository.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { InitStep } from './InitStep';

/** The entry `m3 init` adds. */
export const M3_IGNORE_ENTRY = '.m3/';

// Spellings that already ignore the folder at the project root (or everywhere).
const COVERING = new Set(['.m3', '.m3/', '/.m3', '/.m3/', '.m3/*', '/.m3/*', '.m3/**', '/.m3/**', '**/.m3', '**/.m3/']);

/** True when one of the lines of a .gitignore already ignores `.m3/` (a later `!` line un-ignores it). */
export function ignoresM3(text: string): boolean {
  let ignored = false;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (COVERING.has(line)) ignored = true;
    else if (line.startsWith('!') && COVERING.has(line.slice(1))) ignored = false;
  }
  return ignored;
}

/** `text` with the entry appended on its own line (the file's line ending kept). */
export function appendIgnoreEntry(text: string): string {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const separator = text === '' || text.endsWith('\n') ? '' : eol;
  return `${text}${separator}${M3_IGNORE_ENTRY}${eol}`;
}

/** Plans the `.gitignore` step for the project in `folder`. */
export function planGitignore(folder: string): InitStep {
  const path = join(folder, '.gitignore');
  if (!existsSync(path)) {
    return {
      step: '.gitignore',
      state: 'change',
      message: `created .gitignore with ${M3_IGNORE_ENTRY}`,
      write: { path: '.gitignore', content: `${M3_IGNORE_ENTRY}\n`, create: true },
    };
  }
  const text = readFileSync(path, 'utf8');
  if (ignoresM3(text)) return { step: '.gitignore', state: 'done', message: 'already done: .gitignore ignores .m3/' };
  return {
    step: '.gitignore',
    state: 'change',
    message: `added ${M3_IGNORE_ENTRY} to .gitignore`,
    write: { path: '.gitignore', content: appendIgnoreEntry(text), create: false },
  };
}
