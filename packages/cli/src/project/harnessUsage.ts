// Which agent harnesses a project's suites name, found by reading its test files as text:
// `harness: '<kind>'` entries, and for `acp` the `command` of the manifest next to it. A text scan
// is what `m3 doctor` can do without running the suites; a harness chosen at run time (a variable,
// `--harness` on the command line) is not seen, and doctor says what it looked at.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/** One harness a test file names. */
export interface HarnessUse {
  readonly kind: string;
  /** For `acp`: the manifest command when it is a string literal near the harness entry. */
  readonly command: string | null;
  /** Test file, relative to the project. */
  readonly file: string;
}

/** What the scan read and found. */
export interface HarnessScan {
  readonly filesRead: number;
  readonly uses: readonly HarnessUse[];
}

const SKIPPED_FOLDERS = new Set(['node_modules', '.git', 'dist', 'build', 'coverage', '.m3']);
const TEST_FILE = /(?:\.|^)(?:test|spec)\.[cm]?[jt]sx?$/;
const MAX_FILES = 5000;
const MAX_DEPTH = 12;
const MAX_BYTES = 1_000_000;

/** The project's test files (`*.test.*`, `*.spec.*`, `__tests__/**`), bounded in count and depth. */
export function findTestFiles(folder: string): string[] {
  const found: string[] = [];
  const walk = (dir: string, depth: number, inTestsFolder: boolean): void => {
    if (depth > MAX_DEPTH || found.length >= MAX_FILES) return;
    let names: string[];
    try {
      names = readdirSync(dir).sort();
    } catch {
      return;
    }
    for (const name of names) {
      if (found.length >= MAX_FILES) return;
      const path = join(dir, name);
      let stats;
      try {
        stats = statSync(path);
      } catch {
        continue;
      }
      if (stats.isDirectory()) {
        if (!SKIPPED_FOLDERS.has(name) && !name.startsWith('.'))
          walk(path, depth + 1, inTestsFolder || name === '__tests__');
      } else if ((TEST_FILE.test(name) || (inTestsFolder && /\.[cm]?[jt]sx?$/.test(name))) && stats.size <= MAX_BYTES) {
        found.push(path);
      }
    }
  };
  walk(folder, 0, false);
  return found;
}

const HARNESS = /\bharness\s*:\s*(['"`])([a-z_]+)\1/g;
const COMMAND = /\bcommand\s*:\s*(['"`])([^'"`\n]+)\1/;
const EXECUTABLE = /\bexecutable\s*:\s*(['"`])([^'"`\n]+)\1/;

/** The harness uses in one file's text (`file` is how it is reported). */
export function harnessUsesIn(text: string, file: string): HarnessUse[] {
  const uses: HarnessUse[] = [];
  for (const match of text.matchAll(HARNESS)) {
    const kind = match[2]!;
    // The command sits in the same entry: an acp manifest's `command`, a native CLI's `executable`.
    // The entry is taken as from its opening brace to the next entry's `harness:` (or 400 characters).
    const before = text.slice(Math.max(0, match.index - 300), match.index);
    const after = text.slice(match.index + match[0].length, match.index + match[0].length + 400);
    const next = after.search(/\bharness\s*:/);
    const scope = before.slice(Math.max(before.lastIndexOf('{'), 0)) + (next === -1 ? after : after.slice(0, next));
    const command = (kind === 'acp' ? COMMAND : EXECUTABLE).exec(scope)?.[2] ?? null;
    uses.push({ kind, command, file });
  }
  return uses;
}

/** Reads every test file of the project and lists the harnesses they name. */
export function scanHarnessUses(folder: string): HarnessScan {
  const files = findTestFiles(folder);
  const uses: HarnessUse[] = [];
  for (const path of files) {
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch {
      continue;
    }
    uses.push(...harnessUsesIn(text, relative(folder, path)));
  }
  return { filesRead: files.length, uses };
}
