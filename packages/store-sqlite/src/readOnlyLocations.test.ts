import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SQLiteExecutionStore } from './SQLiteExecutionStore';
import { canRunUnprivileged, unprivileged } from './unprivileged.testkit';

// File permissions only bind an unprivileged process: the store is opened in a child run through
// unprivileged() (as root, without CAP_DAC_OVERRIDE).
const OPEN_STORE = join(__dirname, '__fixtures__', 'openStore.js');
const itWithPermissions = canRunUnprivileged() ? it : it.skip;

interface Opened {
  ok: boolean;
  name?: string;
  message?: string;
  runs?: string[];
  notices?: string[];
}

function openAsUser(mode: 'write' | 'read', path: string): Opened {
  const { command, args } = unprivileged(process.execPath, [OPEN_STORE, mode, path]);
  const env = { ...process.env, SF_M3_CORE_DIST: '1' };
  const result = spawnSync(command, args, { encoding: 'utf8', env, timeout: 60_000 });
  if (result.status !== 0) throw new Error(`openStore.js exited ${String(result.status)}: ${result.stderr}`);
  return JSON.parse(result.stdout.trim()) as Opened;
}

async function databaseWithRun(folder: string): Promise<string> {
  mkdirSync(folder, { recursive: true });
  const path = join(folder, 'executions.sqlite');
  const store = new SQLiteExecutionStore(path);
  await store.saveRun({
    runId: 'run-saved',
    label: null,
    startedAt: '2026-11-30T10:00:00.000Z',
    finishedAt: '2026-11-30T10:00:01.000Z',
    status: 'passed',
    argv: [],
    counts: { passed: 1, failed: 0, skipped: 0, todo: 0 },
  });
  await store.close();
  return path;
}

describe('read-only database files and folders', () => {
  jest.setTimeout(120_000);
  const root = mkdtempSync(join(tmpdir(), 'm3-sqlite-readonly-'));
  afterAll(() => {
    for (const name of readdirSync(root)) chmodSync(join(root, name), 0o755);
  });

  itWithPermissions('a read-only file: writing names the file and the fix, reading works', async () => {
    const path = await databaseWithRun(join(root, 'file'));
    chmodSync(path, 0o444);
    const before = readFileSync(path);
    const written = openAsUser('write', path);
    expect(written).toMatchObject({ ok: false, name: 'StoreError' });
    expect(written.message).toContain(`results database ${path} is read-only (EACCES)`);
    expect(written.message).toContain(`chmod u+w ${path}`);
    expect(openAsUser('read', path)).toEqual({ ok: true, runs: ['run-saved'] });
    expect(readFileSync(path).equals(before)).toBe(true);
  });

  itWithPermissions(
    'a read-only folder: writing names the folder and the -wal/-shm it needs, reading works',
    async () => {
      const folder = join(root, 'folder');
      const path = await databaseWithRun(folder);
      chmodSync(folder, 0o555);
      const written = openAsUser('write', path);
      expect(written).toMatchObject({ ok: false, name: 'StoreError' });
      expect(written.message).toContain(`the folder ${folder} of results database ${path} is read-only`);
      expect(written.message).toContain('executions.sqlite-wal and executions.sqlite-shm');
      expect(openAsUser('read', path)).toEqual({ ok: true, runs: ['run-saved'] });
      expect(readdirSync(folder)).toEqual(['executions.sqlite']);
    },
  );

  itWithPermissions(
    'a copied database with its -wal and no -shm in a read-only folder is read through a private copy',
    async () => {
      const live = join(root, 'live', 'executions.sqlite');
      await databaseWithRun(join(root, 'live'));
      const folder = join(root, 'copied');
      const path = join(folder, 'executions.sqlite');
      mkdirSync(folder);
      // Written while the store is open, this run is only in the -wal of the copy.
      const store = new SQLiteExecutionStore(live);
      await store.saveRun({
        ...(await store.getRun('run-saved'))!,
        runId: 'run-in-wal',
        startedAt: '2026-11-30T11:00:00.000Z',
      });
      for (const suffix of ['', '-wal']) copyFileSync(`${live}${suffix}`, `${path}${suffix}`);
      await store.close();
      for (const name of readdirSync(folder)) chmodSync(join(folder, name), 0o444);
      chmodSync(folder, 0o555);
      const before = [readFileSync(path), readFileSync(`${path}-wal`)];
      expect(openAsUser('read', path)).toEqual({
        ok: true,
        runs: ['run-in-wal', 'run-saved'],
        notices: [expect.stringContaining(`${path} has a -wal but no -shm in a read-only folder`)],
      });
      expect(readdirSync(folder)).toEqual(['executions.sqlite', 'executions.sqlite-wal']);
      expect([readFileSync(path), readFileSync(`${path}-wal`)]).toEqual(before);
    },
  );

  itWithPermissions('a new database in a read-only folder names the folder', () => {
    const folder = join(root, 'empty');
    mkdirSync(folder);
    chmodSync(folder, 0o555);
    const written = openAsUser('write', join(folder, 'executions.sqlite'));
    expect(written).toMatchObject({ ok: false, name: 'StoreError' });
    expect(written.message).toContain(`the folder ${folder} of results database`);
    expect(written.message).toContain('to create executions.sqlite in it');
    expect(readdirSync(folder)).toEqual([]);
  });
});
