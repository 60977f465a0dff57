import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UsageError } from '../options/UsageError';
import { openResultsStore } from './openResultsStore';

describe('openResultsStore', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'm3-open-store-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  test('a folder that cannot be created is a usage error naming --results-db', () => {
    writeFileSync(join(dir, 'a-file'), 'not a folder');
    const open = () => openResultsStore(join(dir, 'a-file', 'results.sqlite'), { mustExist: false });
    expect(open).toThrow(UsageError);
    expect(open).toThrow(/--results-db.*cannot create the folder for .*results\.sqlite \((EEXIST|ENOTDIR)\)/);
  });

  test('a missing database is a usage error for reading commands', () => {
    expect(() => openResultsStore(join(dir, 'none.sqlite'), { mustExist: true })).toThrow(/no results database at/);
  });

  test('creates the folder and opens a new database for m3 test', async () => {
    const store = openResultsStore(join(dir, 'nested', 'deeper', 'results.sqlite'), { mustExist: false });
    expect(await store.listRuns()).toEqual([]);
    await store.close();
  });
});
