import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { addPresetToConfigText, planJestConfig, readJestConfigFacts } from './jestConfig';

function added(file: string, text: string): string {
  const result = addPresetToConfigText(file, text);
  if (typeof result !== 'string') throw new Error(result.reason);
  return result;
}

describe('adding the preset to a config file as text', () => {
  test('a CommonJS config keeps its options, comments and reporters; the preset goes first', () => {
    const text = [
      "/** @type {import('jest').Config} */",
      'module.exports = { // ours',
      "  testMatch: ['<rootDir>/tests/**/*.test.ts'],",
      "  reporters: ['default', '<rootDir>/recordingReporter.js'],",
      '};',
      '',
    ].join('\n');
    expect(added('jest.config.js', text)).toBe(
      [
        "/** @type {import('jest').Config} */",
        'module.exports = { // ours',
        "  preset: 'sf-m3',",
        "  testMatch: ['<rootDir>/tests/**/*.test.ts'],",
        "  reporters: ['default', '<rootDir>/recordingReporter.js'],",
        '};',
        '',
      ].join('\n'),
    );
  });

  test('a TypeScript config exporting a typed const, with double quotes', () => {
    const text =
      'import type { Config } from "jest";\n\nconst config: Config = {\n  verbose: true,\n};\n\nexport default config;\n';
    expect(added('jest.config.ts', text)).toBe(
      'import type { Config } from "jest";\n\nconst config: Config = {\n  preset: "sf-m3",\n  verbose: true,\n};\n\nexport default config;\n',
    );
  });

  test('one-line and empty objects, and an ESM default export', () => {
    expect(added('jest.config.mjs', 'export default { verbose: true };\n')).toBe(
      "export default { preset: 'sf-m3', verbose: true };\n",
    );
    expect(added('jest.config.cjs', 'module.exports = {};\n')).toBe("module.exports = { preset: 'sf-m3' };\n");
  });

  test('the "jest" key of package.json and a JSON config are edited in place', () => {
    const pkg = '{\n  "name": "p",\n  "jest": {\n    "testEnvironment": "node"\n  }\n}\n';
    expect(added('package.json', pkg)).toBe(
      '{\n  "name": "p",\n  "jest": {\n    "preset": "sf-m3",\n    "testEnvironment": "node"\n  }\n}\n',
    );
    expect(added('jest.config.json', '{ "verbose": true }')).toBe('{ "preset": "sf-m3", "verbose": true }');
  });

  test('what a text scan cannot be sure of is refused with the reason', () => {
    expect(addPresetToConfigText('jest.config.js', 'module.exports = async () => ({ verbose: true });')).toEqual({
      reason: 'it does not export an object literal (a function or a call, perhaps)',
    });
    expect(
      addPresetToConfigText('jest.config.js', "const base = require('./base');\nmodule.exports = { ...base };"),
    ).toEqual({
      reason: 'its exported object spreads another object, which may set a preset of its own',
    });
    expect(addPresetToConfigText('jest.config.js', 'module.exports = {};\nmodule.exports = {};')).toEqual({
      reason: 'it has more than one `module.exports =` / `export default`',
    });
  });

  test('strings, comments and regular expressions with brackets do not confuse the scan', () => {
    const text =
      "module.exports = {\n  // preset: 'other' (commented out)\n  testRegex: '(/__tests__/.*|(\\\\.|/)(test|spec))\\\\.[jt]sx?$',\n  transform: { '^.+\\\\.txt$': '<rootDir>/t.js' },\n  x: /[}]/,\n};\n";
    const facts = readJestConfigFacts('jest.config.js', text);
    expect(facts).toMatchObject({ preset: null, projects: false, selects: ['testRegex'] });
    expect(added('jest.config.js', text)).toContain("module.exports = {\n  preset: 'sf-m3',\n  // preset: 'other'");
  });
});

describe('reading a config', () => {
  test('a preset given as an expression is reported as one', () => {
    const text = "const path = require('node:path');\nmodule.exports = { preset: path.join(__dirname, 'p.js') };";
    expect(readJestConfigFacts('jest.config.js', text)).toMatchObject({
      preset: { expression: "path.join(__dirname, 'p.js')" },
    });
  });

  test('projects with the sf-m3 preset count as set up', () => {
    const text = "module.exports = { projects: [{ displayName: 'm3', preset: 'sf-m3' }, { preset: 'ts-jest' }] };";
    expect(readJestConfigFacts('jest.config.js', text)).toMatchObject({ projects: true, projectHasSfM3: true });
  });
});

describe('the jest config step on a project folder', () => {
  let folder: string;
  beforeEach(() => {
    folder = mkdtempSync(join(tmpdir(), 'm3-jestconfig-'));
    writeFileSync(join(folder, 'package.json'), '{ "name": "p" }\n');
  });
  afterEach(() => rmSync(folder, { recursive: true, force: true }));

  test('creates jest.config.js when there is no config, as ESM in a "type": "module" package', () => {
    expect(planJestConfig(folder).step.write?.content).toContain("module.exports = { preset: 'sf-m3' };");
    writeFileSync(join(folder, 'package.json'), '{ "name": "p", "type": "module" }\n');
    expect(planJestConfig(folder).step.write?.content).toContain("export default { preset: 'sf-m3' };");
  });

  test('another preset is left alone, with the ways to combine them', () => {
    writeFileSync(join(folder, 'jest.config.js'), "module.exports = { preset: 'ts-jest' };\n");
    const { step } = planJestConfig(folder);
    expect(step.state).toBe('blocked');
    expect(step.message).toBe("jest.config.js already has preset: 'ts-jest'");
    expect(step.details?.join('\n')).toContain("projects: [{ preset: 'ts-jest', ...your settings }");
    expect(step.write).toBeUndefined();
  });

  test('a config that cannot be edited safely names the exact line to add', () => {
    writeFileSync(join(folder, 'jest.config.ts'), 'export default async () => ({});\n');
    const { step } = planJestConfig(folder);
    expect(step.state).toBe('blocked');
    expect(step.details).toEqual([
      "add this line to the config object it exports, then run `npx m3 init` again:  preset: 'sf-m3',",
    ]);
  });

  test('two configs are refused, as Jest refuses them', () => {
    writeFileSync(join(folder, 'jest.config.js'), 'module.exports = {};\n');
    writeFileSync(join(folder, 'package.json'), '{ "name": "p", "jest": {} }\n');
    expect(planJestConfig(folder).step.message).toBe(
      'Jest finds more than one config here (jest.config.js, package.json) and refuses to run',
    );
  });

  test('the preset already there is done', () => {
    writeFileSync(join(folder, 'package.json'), '{ "name": "p", "jest": { "preset": "sf-m3" } }\n');
    expect(planJestConfig(folder).step).toMatchObject({ state: 'done' });
  });
});
