// The `tsconfig` step of `m3 init` and the `tsconfig types` check of `m3 doctor`: ts-jest
// type-checks each test, so `describe.m3`, `m3Kit` and the matchers need `sf-m3/globals` in
// `compilerOptions.types`. The file is JSONC; edits insert text and keep comments and layout.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import type { InitStep } from './InitStep';
import { appendEntries, type LiteralSpan } from './insertEntries';
import { parseJsonc, plainValue, propertyOf, type JsoncNode } from './jsonc';

/** The global types sf-m3 declares. */
export const SF_M3_GLOBALS = 'sf-m3/globals';

/** The tsconfig the README shows, written when the project has none. */
export const README_TSCONFIG = `{
  "compilerOptions": {
    "target": "ES2022",
    "module": "commonjs",
    "strict": true,
    "esModuleInterop": true,
    "types": ["jest", "${SF_M3_GLOBALS}"]
  }
}
`;

/** `compilerOptions.types` as TypeScript will see it for a tsconfig. */
export interface EffectiveTypes {
  /** The list, or null when no config in the `extends` chain sets it. */
  readonly types: readonly string[] | null;
  /** The file that sets it (the tsconfig itself or one it extends), when one does. */
  readonly from: string | null;
  /** An `extends` target that could not be read (its types are then unknown). */
  readonly unreadable: string | null;
}

function span(node: JsoncNode): LiteralSpan {
  if (node.kind === 'object') {
    return {
      start: node.start,
      end: node.end,
      entries: node.properties.map((p) => ({ start: p.keyStart, end: p.value.end })),
    };
  }
  if (node.kind === 'array') return { start: node.start, end: node.end, entries: node.elements };
  throw new Error('not an object or array');
}

function resolveExtends(target: string, fromDir: string): string | null {
  if (target.startsWith('.') || isAbsolute(target)) {
    const path = resolve(fromDir, target);
    return [path, `${path}.json`].find((candidate) => existsSync(candidate) && statSync(candidate).isFile()) ?? null;
  }
  for (const candidate of [target, `${target}/tsconfig.json`, `${target}.json`]) {
    try {
      return require.resolve(candidate, { paths: [fromDir] });
    } catch {
      // Try the next spelling TypeScript accepts.
    }
  }
  return null;
}

/** Reads the `types` TypeScript uses for the tsconfig at `file`, following `extends`. */
export function effectiveTypes(file: string, depth = 0): EffectiveTypes {
  const root = parseJsonc(readFileSync(file, 'utf8'));
  const own = propertyOf(propertyOf(root, 'compilerOptions')?.value, 'types')?.value;
  if (own !== undefined) {
    const list = plainValue(own);
    return { types: Array.isArray(list) ? list.map(String) : null, from: file, unreadable: null };
  }
  const ext = propertyOf(root, 'extends')?.value;
  const targets = ext === undefined ? [] : [plainValue(ext)].flat().map(String);
  // With several bases the later ones win, so look from the last.
  for (const target of targets.reverse()) {
    const path = depth < 16 ? resolveExtends(target, dirname(file)) : null;
    if (path === null) return { types: null, from: null, unreadable: target };
    const inherited = effectiveTypes(path, depth + 1);
    if (inherited.types !== null || inherited.unreadable !== null) return inherited;
  }
  return { types: null, from: null, unreadable: null };
}

/** The `@types/*` packages installed in the project (TypeScript 5 includes them all while `types` is unset). */
export function installedTypePackages(folder: string): string[] {
  try {
    return readdirSync(join(folder, 'node_modules', '@types'))
      .filter((name) => !name.startsWith('.'))
      .sort();
  } catch {
    return [];
  }
}

/** The `@types/*` packages the project's package.json declares (in any dependency field), without the prefix. */
export function declaredTypePackages(folder: string): string[] {
  let manifest: unknown;
  try {
    manifest = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8'));
  } catch {
    return [];
  }
  if (typeof manifest !== 'object' || manifest === null) return [];
  const fields = ['dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies'] as const;
  const names = fields.flatMap((field) => {
    const deps = (manifest as Record<string, unknown>)[field];
    return typeof deps === 'object' && deps !== null ? Object.keys(deps) : [];
  });
  return [...new Set(names.filter((name) => name.startsWith('@types/')).map((name) => name.slice('@types/'.length)))];
}

/**
 * The installed `@types` packages worth keeping in a `types` list written for a tsconfig that set
 * none: `node` and `jest` (the starter and the globals use them) and those the project declares.
 * The rest came in with other packages (Jest alone brings a dozen, such as `babel__core` and
 * `yargs`) and the project never named them, so listing them would only be noise.
 */
export function keptTypePackages(installed: readonly string[], declared: readonly string[]): string[] {
  return installed.filter((name) => name === 'node' || name === 'jest' || declared.includes(name));
}

/** The `types` list to write when the tsconfig sets none: what it saw before, plus jest and sf-m3/globals. */
export function typesToWrite(inherited: readonly string[] | null, installed: readonly string[]): string[] {
  const base = inherited ?? installed;
  const names = [...base];
  if (!names.includes('jest') && !names.includes('@types/jest')) names.push('jest');
  if (!names.includes(SF_M3_GLOBALS)) names.push(SF_M3_GLOBALS);
  return names;
}

/** `text` (a tsconfig) with `sf-m3/globals` in `compilerOptions.types`, or why it was not changed. */
export function addGlobalsToTsconfigText(
  text: string,
  inherited: EffectiveTypes,
  installed: readonly string[],
): { text: string; message: string } | { done: string } | { blocked: string } {
  const root = parseJsonc(text);
  if (root.kind !== 'object') return { blocked: 'tsconfig.json is not an object' };
  const options = propertyOf(root, 'compilerOptions')?.value;
  const quoted = (names: readonly string[]) => `[${names.map((n) => JSON.stringify(n)).join(', ')}]`;
  if (options === undefined) {
    const types = typesToWrite(inherited.types, installed);
    return {
      text: appendEntries(text, span(root), [`"compilerOptions": { "types": ${quoted(types)} }`]),
      message: `added "compilerOptions": { "types": ${quoted(types)} } to tsconfig.json`,
    };
  }
  if (options.kind !== 'object') return { blocked: 'compilerOptions in tsconfig.json is not an object' };
  const types = propertyOf(options, 'types')?.value;
  if (types === undefined) {
    const list = typesToWrite(inherited.types, installed);
    const kept = inherited.types !== null ? ` (keeps the types it inherited from ${inherited.from})` : '';
    return {
      text: appendEntries(text, span(options), [`"types": ${quoted(list)}`]),
      message: `added "types": ${quoted(list)} to compilerOptions in tsconfig.json${kept}`,
    };
  }
  if (types.kind !== 'array') return { blocked: 'compilerOptions.types in tsconfig.json is not a list' };
  const names = types.elements.map(plainValue);
  if (names.includes(SF_M3_GLOBALS)) return { done: `already done: tsconfig.json types include "${SF_M3_GLOBALS}"` };
  const added = [...(names.includes('jest') || names.includes('@types/jest') ? [] : ['jest']), SF_M3_GLOBALS];
  return {
    text: appendEntries(
      text,
      span(types),
      added.map((n) => JSON.stringify(n)),
    ),
    message: `added ${added.map((n) => `"${n}"`).join(' and ')} to compilerOptions.types in tsconfig.json`,
  };
}

/** Plans the `tsconfig` step for the project in `folder`. */
export function planTsconfig(folder: string): InitStep {
  const file = join(folder, 'tsconfig.json');
  if (!existsSync(file)) {
    return {
      step: 'tsconfig',
      state: 'change',
      message: `created tsconfig.json (the README's, with "types": ["jest", "${SF_M3_GLOBALS}"])`,
      write: { path: 'tsconfig.json', content: README_TSCONFIG, create: true },
    };
  }
  const text = readFileSync(file, 'utf8');
  const root = parseJsonc(text);
  const hasOwnTypes = propertyOf(propertyOf(root, 'compilerOptions')?.value, 'types') !== undefined;
  const inherited = hasOwnTypes ? { types: null, from: null, unreadable: null } : effectiveTypes(file);
  if (inherited.unreadable !== null) {
    return {
      step: 'tsconfig',
      state: 'blocked',
      message: `tsconfig.json extends ${inherited.unreadable}, which could not be read, so its types are unknown`,
      details: [
        `add "${SF_M3_GLOBALS}" (and "jest") to compilerOptions.types, keeping the types the base sets, then run \`npx m3 init\` again.`,
      ],
    };
  }
  const kept = keptTypePackages(installedTypePackages(folder), declaredTypePackages(folder));
  const result = addGlobalsToTsconfigText(text, inherited, kept);
  if ('done' in result) return { step: 'tsconfig', state: 'done', message: result.done };
  if ('blocked' in result) {
    return {
      step: 'tsconfig',
      state: 'blocked',
      message: `cannot edit tsconfig.json: ${result.blocked}`,
      details: [`make compilerOptions.types a list that includes "${SF_M3_GLOBALS}", then run \`npx m3 init\` again.`],
    };
  }
  return {
    step: 'tsconfig',
    state: 'change',
    message: result.message,
    write: { path: 'tsconfig.json', content: result.text, create: false },
  };
}
