import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { RunStateDir } from './RunStateDir';

describe('RunStateDir', () => {
  const made: string[] = [];
  afterEach(() => {
    for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });

  test('is made under the root the CLI gives, else under the OS temp directory', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'm3-state-root-'));
    made.push(root);
    const inRoot = RunStateDir.create(root);
    expect(path.dirname(inRoot.dir)).toBe(root);
    expect(path.basename(inRoot.dir)).toMatch(/^sf-m3-run-/);
    const fallback = RunStateDir.create(path.join(root, 'missing'));
    made.push(fallback.dir);
    expect(path.dirname(fallback.dir)).toBe(os.tmpdir());
  });

  test('a file marked running stays listed until its mark is cleared, and is never read as a report', () => {
    const state = RunStateDir.create();
    made.push(state.dir);
    const clearA = state.startFile('tests/a.test.js');
    state.startFile('tests/b.test.js');
    state.write({ kind: 'file_error', testPath: 'tests/c.test.js', message: 'boom' });
    expect(
      state
        .unfinishedFiles()
        .map((f) => f.testPath)
        .sort(),
    ).toEqual(['tests/a.test.js', 'tests/b.test.js']);
    expect(state.unfinishedFiles()[0]?.pid).toBe(process.pid);
    expect(state.read()).toEqual([{ kind: 'file_error', testPath: 'tests/c.test.js', message: 'boom' }]);
    clearA();
    expect(state.unfinishedFiles().map((f) => f.testPath)).toEqual(['tests/b.test.js']);
    state.remove();
    expect(state.unfinishedFiles()).toEqual([]);
  });
});
