// processTests.js stays true: every entry names a test file or folder that exists (a renamed
// file would otherwise drop back into the unit project, whose environment then fails it, and a
// deleted one would leave a dead line), with no entry twice.
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';

const processTests = require('./processTests') as readonly string[];
const ROOT = join(__dirname, '..', '..');

describe('processTests.js', () => {
  it('names existing test files, or folders ending in /, each once', () => {
    const wrong = processTests.filter((path) => {
      const full = join(ROOT, path);
      if (!existsSync(full)) return true;
      return path.endsWith('/') ? !statSync(full).isDirectory() : !path.endsWith('.test.ts');
    });
    expect(wrong).toEqual([]);
    expect(new Set(processTests).size).toBe(processTests.length);
  });
});
