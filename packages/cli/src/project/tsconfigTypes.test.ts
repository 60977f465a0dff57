import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  addGlobalsToTsconfigText,
  declaredTypePackages,
  effectiveTypes,
  keptTypePackages,
  planTsconfig,
  README_TSCONFIG,
  typesToWrite,
} from './tsconfigTypes';

const unset = { types: null, from: null, unreadable: null };

function edit(text: string, installed: string[] = []): string {
  const result = addGlobalsToTsconfigText(text, unset, installed);
  if (!('text' in result)) throw new Error(`not edited: ${JSON.stringify(result)}`);
  return result.text;
}

describe('adding sf-m3/globals to a tsconfig', () => {
  test('appends to a one-line types list, keeping the other types', () => {
    const text = '{\n  "compilerOptions": {\n    "strict": true,\n    "types": ["node"]\n  }\n}\n';
    expect(edit(text)).toBe(
      '{\n  "compilerOptions": {\n    "strict": true,\n    "types": ["node", "jest", "sf-m3/globals"]\n  }\n}\n',
    );
  });

  test('keeps comments, a trailing comma and a multi-line list as written', () => {
    const text = [
      '// the project tsconfig',
      '{',
      '  "compilerOptions": {',
      '    /* node and jest */',
      '    "types": [',
      '      "node",',
      '      "jest", // test globals',
      '    ],',
      '  },',
      '}',
      '',
    ].join('\n');
    expect(edit(text)).toBe(
      [
        '// the project tsconfig',
        '{',
        '  "compilerOptions": {',
        '    /* node and jest */',
        '    "types": [',
        '      "node",',
        '      "jest", // test globals',
        '      "sf-m3/globals",',
        '    ],',
        '  },',
        '}',
        '',
      ].join('\n'),
    );
  });

  test('adds a types list after the last option, leaving its trailing comment on its line', () => {
    const text = '{\n\t"compilerOptions": {\n\t\t"strict": true // be strict\n\t}\n}\n';
    expect(edit(text, ['jest', 'node'])).toBe(
      '{\n\t"compilerOptions": {\n\t\t"strict": true, // be strict\n\t\t"types": ["jest", "node", "sf-m3/globals"]\n\t}\n}\n',
    );
  });

  test('without types, the @types packages TypeScript included automatically stay included', () => {
    expect(typesToWrite(null, ['jest', 'node'])).toEqual(['jest', 'node', 'sf-m3/globals']);
    expect(typesToWrite(null, ['node'])).toEqual(['node', 'jest', 'sf-m3/globals']);
    expect(typesToWrite(['node'], ['node', 'react'])).toEqual(['node', 'jest', 'sf-m3/globals']);
  });

  test('keeps node, jest and the declared @types packages of those installed', () => {
    expect(keptTypePackages(['babel__core', 'jest', 'node', 'react', 'yargs'], ['react'])).toEqual([
      'jest',
      'node',
      'react',
    ]);
    expect(keptTypePackages(['babel__core', 'yargs'], [])).toEqual([]);
  });

  test('adds compilerOptions when there are none, and fills an empty list', () => {
    expect(edit('{ "include": ["src"] }')).toBe(
      '{ "include": ["src"], "compilerOptions": { "types": ["jest", "sf-m3/globals"] } }',
    );
    expect(edit('{"compilerOptions": {"types": []}}')).toBe(
      '{"compilerOptions": {"types": ["jest", "sf-m3/globals"]}}',
    );
    expect(edit('{\n  "compilerOptions": {}\n}\n')).toBe(
      '{\n  "compilerOptions": { "types": ["jest", "sf-m3/globals"] }\n}\n',
    );
  });

  test('a list that has sf-m3/globals is done; one that is not a list is refused', () => {
    expect(addGlobalsToTsconfigText('{"compilerOptions":{"types":["sf-m3/globals"]}}', unset, [])).toEqual({
      done: 'already done: tsconfig.json types include "sf-m3/globals"',
    });
    expect(addGlobalsToTsconfigText('{"compilerOptions":{"types":"jest"}}', unset, [])).toEqual({
      blocked: 'compilerOptions.types in tsconfig.json is not a list',
    });
  });
});

describe('the tsconfig step on a project folder', () => {
  let folder: string;
  beforeEach(() => (folder = mkdtempSync(join(tmpdir(), 'm3-tsconfig-'))));
  afterEach(() => rmSync(folder, { recursive: true, force: true }));

  test('creates the README tsconfig when there is none', () => {
    const step = planTsconfig(folder);
    expect(step.state).toBe('change');
    expect(step.write).toEqual({ path: 'tsconfig.json', content: README_TSCONFIG, create: true });
    expect(JSON.parse(README_TSCONFIG).compilerOptions.types).toEqual(['jest', 'sf-m3/globals']);
  });

  test('keeps the types a base config sets when the project config sets none', () => {
    mkdirSync(join(folder, 'config'));
    writeFileSync(join(folder, 'config', 'base.json'), '{ "compilerOptions": { "types": ["node", "vitest"] } }');
    writeFileSync(
      join(folder, 'tsconfig.json'),
      '{\n  "extends": "./config/base",\n  "compilerOptions": {\n    "strict": true\n  }\n}\n',
    );
    expect(effectiveTypes(join(folder, 'tsconfig.json')).types).toEqual(['node', 'vitest']);
    const step = planTsconfig(folder);
    expect(step.message).toContain('keeps the types it inherited from');
    expect(step.write?.content).toBe(
      '{\n  "extends": "./config/base",\n  "compilerOptions": {\n    "strict": true,\n    "types": ["node", "vitest", "jest", "sf-m3/globals"]\n  }\n}\n',
    );
  });

  test('without types, lists node, jest and the @types the project declares, not those other packages brought', () => {
    for (const name of ['babel__core', 'graceful-fs', 'jest', 'node', 'react', 'yargs']) {
      mkdirSync(join(folder, 'node_modules', '@types', name), { recursive: true });
    }
    writeFileSync(
      join(folder, 'package.json'),
      JSON.stringify({ type: 'module', devDependencies: { '@types/react': '^19.0.0', jest: '^30.0.0' } }),
    );
    writeFileSync(join(folder, 'tsconfig.json'), '{ "compilerOptions": { "module": "NodeNext" } }\n');
    expect(declaredTypePackages(folder)).toEqual(['react']);
    expect(planTsconfig(folder).write?.content).toBe(
      '{ "compilerOptions": { "module": "NodeNext", "types": ["jest", "node", "react", "sf-m3/globals"] } }\n',
    );
  });

  test('an extends that cannot be read blocks the step instead of dropping its types', () => {
    writeFileSync(join(folder, 'tsconfig.json'), '{ "extends": "@company/tsconfig-missing" }');
    const step = planTsconfig(folder);
    expect(step.state).toBe('blocked');
    expect(step.message).toContain('@company/tsconfig-missing');
  });
});
