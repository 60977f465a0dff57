// The relative imports of a project's test files that Jest will not find, read as text the way
// `m3 doctor` reads them (without running Jest). Resolution follows Jest's with the sf-m3 preset:
// the path itself, the path with each default moduleFileExtensions extension, a folder's index,
// and for a `.js` specifier also the path without `.js` (the preset's mapping, so an ESM project's
// `./helpers/servers.js` finds servers.ts). A `.d.ts` counts: a type-only import never loads.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { findTestFiles } from './harnessUsage';

/** A relative import of a test file that resolves to no file. */
export interface UnresolvedImport {
  /** Test file and line, relative to the project: `tests/a.test.ts:3`. */
  readonly at: string;
  readonly specifier: string;
}

/** What the scan read and found. */
export interface TestImportScan {
  readonly filesRead: number;
  readonly importsRead: number;
  readonly unresolved: readonly UnresolvedImport[];
}

/** Jest's default moduleFileExtensions, in its order, plus `d.ts` for type-only imports. */
const EXTENSIONS = ['js', 'mjs', 'cjs', 'jsx', 'ts', 'tsx', 'json', 'node', 'd.ts'];

/** `from '…'`, `import '…'`, `import('…')`, `require('…')`, `jest.mock('…')` with a relative specifier. */
const RELATIVE_IMPORT =
  /(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*|\bjest\.(?:mock|requireActual|unmock)\s*\(\s*)(['"])(\.{1,2}\/[^'"\n]*)\1/g;

/** The relative specifiers in a file's text, with their 1-based lines. */
export function relativeImportsIn(text: string): { line: number; specifier: string }[] {
  return [...text.matchAll(RELATIVE_IMPORT)].map((match) => ({
    line: text.slice(0, match.index).split('\n').length,
    specifier: match[2]!,
  }));
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function resolvesAsFileOrFolder(path: string): boolean {
  if (isFile(path)) return true;
  if (EXTENSIONS.some((ext) => isFile(`${path}.${ext}`))) return true;
  if (existsSync(resolve(path, 'package.json'))) return true;
  return EXTENSIONS.some((ext) => isFile(resolve(path, `index.${ext}`)));
}

/** True when `specifier`, imported from `fromFile`, names a file Jest (with the preset) will load. */
export function relativeImportResolves(fromFile: string, specifier: string): boolean {
  const path = resolve(dirname(fromFile), specifier);
  if (specifier.endsWith('.js') && resolvesAsFileOrFolder(path.slice(0, -'.js'.length))) return true;
  return resolvesAsFileOrFolder(path);
}

/** Reads every test file of the project in `folder` and lists the relative imports that resolve to nothing. */
export function scanTestImports(folder: string): TestImportScan {
  const files = findTestFiles(folder);
  const unresolved: UnresolvedImport[] = [];
  let importsRead = 0;
  for (const file of files) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    for (const { line, specifier } of relativeImportsIn(text)) {
      importsRead += 1;
      if (!relativeImportResolves(file, specifier))
        unresolved.push({ at: `${relative(folder, file)}:${line}`, specifier });
    }
  }
  return { filesRead: files.length, importsRead, unresolved };
}
