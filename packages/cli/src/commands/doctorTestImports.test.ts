import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkTestImports } from './doctorTestImports';

describe('the test imports check', () => {
  let folder: string;
  beforeEach(() => {
    folder = mkdtempSync(join(tmpdir(), 'm3-doctor-imports-'));
    mkdirSync(join(folder, 'tests', 'helpers'), { recursive: true });
    writeFileSync(join(folder, 'tests', 'helpers', 'servers.ts'), 'export {};\n');
  });
  afterEach(() => rmSync(folder, { recursive: true, force: true }));

  test('ok when every relative import names a file', () => {
    writeFileSync(join(folder, 'tests', 'a.test.ts'), "import { s } from './helpers/servers.js';\n");
    expect(checkTestImports(folder)).toEqual({
      name: 'test imports',
      status: 'ok',
      detail: '1 relative import(s) in 1 test file(s) resolve',
    });
  });

  test('a warning naming each miss and its line, the first three then a count', () => {
    const misses = ['./a.js', './b.js', './c.js', './d.js'].map((s) => `import '${s}';`);
    writeFileSync(join(folder, 'tests', 'a.test.ts'), ["import './helpers/servers.js';", ...misses].join('\n'));
    const check = checkTestImports(folder);
    expect(check.status).toBe('warn');
    expect(check.detail).toBe(
      "4 of 5 relative import(s) in 1 test file(s) name no file: './a.js' at tests/a.test.ts:2, './b.js' at tests/a.test.ts:3, './c.js' at tests/a.test.ts:4, and 1 more",
    );
    expect(check.fix).toContain('correct the path');
  });
});
