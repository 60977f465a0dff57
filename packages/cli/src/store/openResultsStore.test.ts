import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StoreError } from '@sf-m3/core';
import { openResultsStore, openRunResultsStore } from './openResultsStore';

describe('openResultsStore', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'm3-open-store-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  test('a path under a regular file is a StoreError naming that file, not a raw EEXIST/ENOTDIR', async () => {
    writeFileSync(join(dir, 'a-file'), 'not a folder');
    const path = join(dir, 'a-file', 'results.sqlite');
    const failure = openRunResultsStore(path);
    await expect(failure).rejects.toThrow(StoreError);
    await expect(openRunResultsStore(path)).rejects.toThrow(
      `results database path ${path} is inside ${join(dir, 'a-file')}, which is a file, not a folder`,
    );
    await expect(openRunResultsStore(path)).rejects.not.toThrow(/EEXIST|ENOTDIR/);
  });

  test('a missing database is a usage error for reading commands', () => {
    expect(() => openResultsStore(join(dir, 'none.sqlite'), { mustExist: true })).toThrow(/no results database at/);
  });

  test('m3 test opens its store before Jest: a foreign SQLite file fails fast and is not modified', async () => {
    const path = join(dir, 'results.sqlite');
    const store = await openRunResultsStore(path);
    await store.close();
    writeFileSync(path, 'plain text, not SQLite');
    await expect(openRunResultsStore(path)).rejects.toThrow(/is not an sf-m3 results database/);
    expect(readFileSync(path, 'utf8')).toBe('plain text, not SQLite');
  });

  test('reading commands open read-only: they read, and a write is refused', async () => {
    const path = join(dir, 'nested', 'results.sqlite');
    const writer = await openRunResultsStore(path);
    await writer.saveRun({
      runId: 'run-cli-read',
      label: null,
      startedAt: '2026-11-30T10:00:00.000Z',
      finishedAt: null,
      status: 'running',
      argv: [],
      counts: { passed: 0, failed: 0, skipped: 0, todo: 0 },
    });
    await writer.close();
    const bytes = readFileSync(path);
    const reader = openResultsStore(path, { mustExist: true });
    expect((await reader.listRuns()).map((r) => r.runId)).toEqual(['run-cli-read']);
    await expect(reader.registerSuite('nope')).rejects.toThrow(/opened read-only/);
    await reader.close();
    expect(readFileSync(path).equals(bytes)).toBe(true);
  });

  test('creates the folder and opens a new database for m3 test', async () => {
    const store = await openRunResultsStore(join(dir, 'nested', 'deeper', 'results.sqlite'));
    expect(await store.listRuns()).toEqual([]);
    await store.close();
  });
});
