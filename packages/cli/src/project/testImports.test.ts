import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { relativeImportsIn, scanTestImports } from './testImports';

describe('relative imports of test files', () => {
  test('import, export-from, dynamic import, require and jest.mock; bare specifiers are not read', () => {
    const text = [
      "import { a } from './a.js';",
      "import type { B } from '../b';",
      "export * from './c';",
      "const d = require('./d.json');",
      "jest.mock('./e.js');",
      "const f = await import('./f.js');",
      "import { StdioServer } from 'sf-m3';",
      "import './side-effect.js';",
    ].join('\n');
    expect(relativeImportsIn(text)).toEqual([
      { line: 1, specifier: './a.js' },
      { line: 2, specifier: '../b' },
      { line: 3, specifier: './c' },
      { line: 4, specifier: './d.json' },
      { line: 5, specifier: './e.js' },
      { line: 6, specifier: './f.js' },
      { line: 8, specifier: './side-effect.js' },
    ]);
  });

  describe('on a project folder', () => {
    let folder: string;
    beforeEach(() => {
      folder = mkdtempSync(join(tmpdir(), 'm3-test-imports-'));
      mkdirSync(join(folder, 'tests', 'helpers', 'fixtures'), { recursive: true });
      writeFileSync(join(folder, 'tests', 'helpers', 'servers.ts'), 'export {};\n');
      writeFileSync(join(folder, 'tests', 'helpers', 'plain.js'), 'exports.x = 1;\n');
      writeFileSync(join(folder, 'tests', 'helpers', 'shapes.d.ts'), 'export type S = string;\n');
      writeFileSync(join(folder, 'tests', 'helpers', 'fixtures', 'index.ts'), 'export {};\n');
    });
    afterEach(() => rmSync(folder, { recursive: true, force: true }));

    test('an ESM .js specifier finds its .ts, a real .js, a .d.ts, a folder index; a typo is listed with its line', () => {
      writeFileSync(
        join(folder, 'tests', 'a.m3.test.ts'),
        [
          "import { x } from './helpers/servers.js';",
          "import { y } from './helpers/plain.js';",
          "import type { S } from './helpers/shapes.js';",
          "import { z } from './helpers/fixtures';",
          "import { w } from './helpers/server.js';",
        ].join('\n'),
      );
      expect(scanTestImports(folder)).toEqual({
        filesRead: 1,
        importsRead: 5,
        unresolved: [{ at: join('tests', 'a.m3.test.ts:5'), specifier: './helpers/server.js' }],
      });
    });
  });
});
