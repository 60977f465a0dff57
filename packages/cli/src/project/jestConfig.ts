// The `jest config` step of `m3 init`: find the project's Jest config the way Jest does
// (jest.config.{js,ts,mjs,cjs,cts,json} or the "jest" key of package.json) and plan adding
// `preset: 'sf-m3'` to it as a text edit that keeps the rest of the file as the user wrote it.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isSfM3Preset, SF_M3_PRESET, type InitStep } from './InitStep';
import { prependEntry } from './insertEntries';
import { readExportedObject, stringLiteralValue } from './jsObjectLiteral';
import { parseJsonc, plainValue, propertyOf, type JsoncNode } from './jsonc';

/** Config file names Jest looks for, in its own order. */
export const JEST_CONFIG_FILES = [
  'jest.config.js',
  'jest.config.ts',
  'jest.config.mjs',
  'jest.config.cjs',
  'jest.config.cts',
  'jest.config.json',
] as const;

/** Keys of a Jest config that decide which files are tests (the starter must match them). */
export const TEST_SELECTION_KEYS = ['testMatch', 'testRegex', 'roots'] as const;

/** The config's top-level facts that `m3 init` and `m3 doctor` need. */
export interface JestConfigFacts {
  /** Where the config is (`package.json` for its "jest" key), or null when there is none. */
  readonly file: string | null;
  /** The `preset` value: a string, null when unset, or `{ expression }` when it is not a literal. */
  readonly preset: string | null | { readonly expression: string };
  /** True when `projects` is set (a top-level preset does not reach the projects). */
  readonly projects: boolean;
  /** True when a project listed in `projects` names the sf-m3 preset. */
  readonly projectHasSfM3: boolean;
  /** Test-selection keys the config sets (`testMatch`, `testRegex`, `roots`). */
  readonly selects: readonly string[];
  /** True when the config sets `testEnvironment`, which replaces the preset's. */
  readonly setsEnvironment: boolean;
}

/** The config files present in `folder` (Jest refuses to run with more than one). */
export function jestConfigFiles(folder: string): string[] {
  const files: string[] = JEST_CONFIG_FILES.filter((name) => existsSync(join(folder, name)));
  const pkg = readPackageJson(folder);
  if (pkg !== null && propertyOf(pkg.root, 'jest') !== undefined) files.push('package.json');
  return files;
}

/** package.json's text and tree, or null when there is none (a syntax error throws). */
export function readPackageJson(folder: string): { text: string; root: JsoncNode } | null {
  const path = join(folder, 'package.json');
  if (!existsSync(path)) return null;
  const text = readFileSync(path, 'utf8');
  return { text, root: parseJsonc(text) };
}

const PROJECT_PRESET = /\bpreset["']?\s*:\s*(['"`])sf-m3(?:\/jest-preset(?:\.js)?)?\1/;

function jsonFacts(file: string, config: JsoncNode): JestConfigFacts {
  const preset = propertyOf(config, 'preset')?.value;
  const projects = propertyOf(config, 'projects')?.value;
  const projectValues = projects === undefined ? [] : [plainValue(projects)].flat();
  return {
    file,
    preset:
      preset === undefined
        ? null
        : preset.kind === 'primitive' && typeof preset.value === 'string'
          ? preset.value
          : { expression: JSON.stringify(plainValue(preset)) },
    projects: projects !== undefined,
    projectHasSfM3: projectValues.some(
      (p) => typeof p === 'object' && p !== null && isSfM3Preset(String((p as { preset?: unknown }).preset)),
    ),
    selects: TEST_SELECTION_KEYS.filter((key) => propertyOf(config, key) !== undefined),
    setsEnvironment: propertyOf(config, 'testEnvironment') !== undefined,
  };
}

/** Reads the facts of `file`'s text, or why it cannot be read safely. */
export function readJestConfigFacts(file: string, text: string): JestConfigFacts | string {
  if (file === 'package.json' || file.endsWith('.json')) {
    const root = parseJsonc(text);
    const config = file === 'package.json' ? propertyOf(root, 'jest')!.value : root;
    if (config.kind !== 'object') return `its Jest config is not an object`;
    return jsonFacts(file, config);
  }
  const object = readExportedObject(text);
  if (typeof object === 'string') return object;
  const find = (key: string) => [...object.properties].reverse().find((p) => p.key === key);
  const preset = find('preset');
  const projects = find('projects');
  const literal = preset === undefined ? null : stringLiteralValue(preset.valueText);
  return {
    file,
    preset: preset === undefined ? null : (literal ?? { expression: preset.valueText }),
    projects: projects !== undefined,
    projectHasSfM3: projects !== undefined && PROJECT_PRESET.test(projects.valueText),
    selects: TEST_SELECTION_KEYS.filter((key) => find(key) !== undefined),
    setsEnvironment: find('testEnvironment') !== undefined,
  };
}

function presetEntry(file: string, text: string): string {
  if (file.endsWith('.json')) return `"preset": "${SF_M3_PRESET}"`;
  const single = (text.match(/'[^'\n]*'/g) ?? []).length;
  const double = (text.match(/"[^"\n]*"/g) ?? []).length;
  return double > single ? `preset: "${SF_M3_PRESET}"` : `preset: '${SF_M3_PRESET}'`;
}

/** `text` with the preset added as the config's first property, or why that is not safe. */
export function addPresetToConfigText(file: string, text: string): string | { reason: string } {
  const entry = presetEntry(file, text);
  if (file.endsWith('.json')) {
    const root = parseJsonc(text);
    const config = file === 'package.json' ? propertyOf(root, 'jest')?.value : root;
    if (config?.kind !== 'object') return { reason: 'its Jest config is not an object' };
    const span = { ...config, entries: config.properties.map((p) => ({ start: p.keyStart, end: p.value.end })) };
    return prependEntry(text, span, entry);
  }
  const object = readExportedObject(text);
  if (typeof object === 'string') return { reason: object };
  if (object.properties.some((p) => p.spread)) {
    return { reason: 'its exported object spreads another object, which may set a preset of its own' };
  }
  return prependEntry(text, object.span, entry);
}

/** The note for a config whose own `testEnvironment` would replace the preset's. */
export const ENVIRONMENT_NOTE =
  "it also sets testEnvironment, which replaces sf-m3's environment (describe.m3 and m3Kit need it): remove that line";

/** The advice for a config whose preset is another one: Jest takes one preset per config. */
export function combinePresetAdvice(file: string, other: string): string[] {
  return [
    `a Jest config has one preset, so init left ${file} alone. To use sf-m3 with ${other}, either:`,
    `  - make sf-m3 the preset and copy into ${file} the settings you need from the ${other} preset (sf-m3's preset already runs .ts tests through ts-jest), or`,
    `  - run two Jest projects: projects: [{ preset: ${other}, ...your settings }, { displayName: 'm3', preset: 'sf-m3', testMatch: ['<rootDir>/tests/**/*.m3.test.ts'] }]`,
    'then run `npx m3 init` again.',
  ];
}

function createdConfig(folder: string): InitStep {
  const type = propertyOf(readPackageJson(folder)?.root, 'type')?.value;
  const esm = type !== undefined && plainValue(type) === 'module';
  const exportLine = esm
    ? `export default { preset: '${SF_M3_PRESET}' };`
    : `module.exports = { preset: '${SF_M3_PRESET}' };`;
  const content = [
    '// Jest configuration. The sf-m3 preset adds its test environment, matchers, describe.m3, m3Kit and',
    '// the ts-jest transform for .ts tests; your own options go next to it.',
    "/** @type {import('jest').Config} */",
    exportLine,
    '',
  ].join('\n');
  return {
    step: 'jest config',
    state: 'change',
    message: `created jest.config.js with preset: '${SF_M3_PRESET}'`,
    write: { path: 'jest.config.js', content, create: true },
  };
}

/** Plans the `jest config` step for the project in `folder`. */
export function planJestConfig(folder: string): { step: InitStep; facts: JestConfigFacts | null } {
  const blocked = (message: string, details: string[]): { step: InitStep; facts: null } => ({
    step: { step: 'jest config', state: 'blocked', message, details },
    facts: null,
  });
  const files = jestConfigFiles(folder);
  if (files.length === 0) return { step: createdConfig(folder), facts: null };
  if (files.length > 1) {
    return blocked(`Jest finds more than one config here (${files.join(', ')}) and refuses to run`, [
      'keep one of them, then run `npx m3 init` again.',
    ]);
  }
  const file = files[0]!;
  const text = readFileSync(join(folder, file), 'utf8');
  const where = file === 'package.json' ? 'the "jest" key of package.json' : file;
  const addLine = file.endsWith('.json') ? `"preset": "${SF_M3_PRESET}",` : `preset: '${SF_M3_PRESET}',`;
  const facts = readJestConfigFacts(file, text);
  if (typeof facts === 'string') {
    return blocked(`cannot edit ${file} safely: ${facts}`, [
      `add this line to the config object it exports, then run \`npx m3 init\` again:  ${addLine}`,
    ]);
  }
  if (typeof facts.preset === 'string' && isSfM3Preset(facts.preset)) {
    return {
      step: { step: 'jest config', state: 'done', message: `already done: ${where} has preset: '${facts.preset}'` },
      facts,
    };
  }
  if (facts.projects) {
    if (facts.projectHasSfM3) {
      return {
        step: {
          step: 'jest config',
          state: 'done',
          message: `already done: a project in ${where} has preset: 'sf-m3'`,
        },
        facts,
      };
    }
    return blocked(`${where} uses projects, and a top-level preset does not reach them`, [
      `add  preset: 'sf-m3'  to the project that runs your MCP tests, e.g. { displayName: 'm3', preset: 'sf-m3', testMatch: ['<rootDir>/tests/**/*.m3.test.ts'] }, then run \`npx m3 init\` again.`,
    ]);
  }
  if (facts.preset !== null) {
    const other = typeof facts.preset === 'string' ? `'${facts.preset}'` : `\`${facts.preset.expression}\``;
    return blocked(`${where} already has preset: ${other}`, combinePresetAdvice(file, other));
  }
  const edited = addPresetToConfigText(file, text);
  if (typeof edited !== 'string') {
    return blocked(`cannot edit ${file} safely: ${edited.reason}`, [
      `add this line to the config object it exports, then run \`npx m3 init\` again:  ${addLine}`,
    ]);
  }
  return {
    step: {
      step: 'jest config',
      state: 'change',
      message: `added preset: '${SF_M3_PRESET}' to ${where}`,
      details: facts.setsEnvironment ? [ENVIRONMENT_NOTE] : [],
      write: { path: file, content: edited, create: false },
    },
    facts,
  };
}
