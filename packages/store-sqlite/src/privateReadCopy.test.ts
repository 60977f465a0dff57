import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { makePrivateReadCopy, needsPrivateReadCopy } from './privateReadCopy';

describe('private read copies', () => {
  let folder: string;
  beforeEach(() => {
    folder = mkdtempSync(join(tmpdir(), 'm3-private-copy-'));
  });
  afterEach(() => rmSync(folder, { recursive: true, force: true }));

  it('copies the database and its -wal into a 0700 folder and removes them again', () => {
    const path = join(folder, 'executions.sqlite');
    writeFileSync(path, 'main bytes');
    writeFileSync(`${path}-wal`, 'wal bytes');
    const copy = makePrivateReadCopy(path);
    expect(statSync(dirname(copy.path)).mode & 0o777).toBe(0o700);
    expect(readdirSync(dirname(copy.path)).sort()).toEqual(['executions.sqlite', 'executions.sqlite-wal']);
    expect(readFileSync(copy.path, 'utf8')).toBe('main bytes');
    expect(readFileSync(`${copy.path}-wal`, 'utf8')).toBe('wal bytes');
    copy.remove();
    copy.remove();
    expect(existsSync(dirname(copy.path))).toBe(false);
    expect(readdirSync(folder).sort()).toEqual(['executions.sqlite', 'executions.sqlite-wal']);
  });

  it('a missing -wal is a StoreError naming the file, and leaves no folder behind', () => {
    const path = join(folder, 'executions.sqlite');
    writeFileSync(path, 'main bytes');
    // A temp dir of its own, so copies other test files make at the same time do not show here.
    const temp = join(folder, 'temp');
    mkdirSync(temp);
    const previous = process.env.TMPDIR;
    process.env.TMPDIR = temp;
    try {
      expect(() => makePrivateReadCopy(path)).toThrow(`cannot copy results database ${path} and its -wal`);
    } finally {
      if (previous === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = previous;
    }
    expect(readdirSync(temp)).toEqual([]);
  });

  it('is needed only with a -wal, no -shm, and a folder this process cannot write', () => {
    const path = join(folder, 'executions.sqlite');
    writeFileSync(path, '');
    expect(needsPrivateReadCopy(path)).toBe(false);
    writeFileSync(`${path}-wal`, '');
    // The folder is writable here: SQLite creates the -shm itself (the read-only folder case is
    // in readOnlyLocations.test.ts and e2e/faults/badStores.test.ts, run without root's override).
    expect(needsPrivateReadCopy(path)).toBe(false);
  });
});
