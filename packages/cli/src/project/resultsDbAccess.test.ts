import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkResultsDbAccess } from './resultsDbAccess';

// Root may write anywhere, so permission-denied cases are only meaningful for other users.
const asRoot = process.getuid?.() === 0;

describe('results database access', () => {
  let folder: string;
  beforeEach(() => (folder = mkdtempSync(join(tmpdir(), 'm3-dbaccess-'))));
  afterEach(() => {
    chmodSync(folder, 0o755);
    for (const name of readdirSync(folder)) chmodSync(join(folder, name), 0o755);
    rmSync(folder, { recursive: true, force: true });
  });

  test('a missing database under a writable folder can be created, and nothing is created by the check', () => {
    expect(checkResultsDbAccess(join(folder, '.m3', 'executions.sqlite'))).toEqual({ ok: true, exists: false });
    expect(readdirSync(folder)).toEqual([]);
  });

  test('an existing database is checked without being touched', () => {
    const db = join(folder, 'executions.sqlite');
    writeFileSync(db, 'not opened');
    const before = statSync(db).mtimeMs;
    expect(checkResultsDbAccess(db)).toEqual({ ok: true, exists: true });
    expect(statSync(db).mtimeMs).toBe(before);
    expect(readdirSync(folder)).toEqual(['executions.sqlite']);
  });

  test('a file where the folder should be is a failure with the fix', () => {
    writeFileSync(join(folder, '.m3'), '');
    const access = checkResultsDbAccess(join(folder, '.m3', 'executions.sqlite'));
    expect(access).toEqual({
      ok: false,
      problem: `${join(folder, '.m3')} is a file, so ${join(folder, '.m3', 'executions.sqlite')} cannot be created under it`,
      fix: 'move that file away or pass another path with --results-db / M3_RESULTS_DB',
    });
  });

  test('a folder in the way of the database file is a failure', () => {
    mkdirSync(join(folder, 'executions.sqlite'));
    expect(checkResultsDbAccess(join(folder, 'executions.sqlite'))).toMatchObject({
      ok: false,
      problem: expect.stringContaining('is not a file'),
    });
  });

  (asRoot ? test.skip : test)('a read-only folder is a failure naming chmod', () => {
    mkdirSync(join(folder, '.m3'));
    chmodSync(join(folder, '.m3'), 0o555);
    expect(checkResultsDbAccess(join(folder, '.m3', 'executions.sqlite'))).toMatchObject({
      ok: false,
      problem: `the folder ${join(folder, '.m3')} is not writable`,
      fix: expect.stringContaining(`chmod u+w ${join(folder, '.m3')}`),
    });
  });
});
