import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { runCluster } from './runCluster';

// The run's teardown (jest.config.js globalTeardown) stops the shared cluster with this.
const stopRunCluster = require('../../../../e2e/run/stopRunCluster') as (runFolder: string) => void;

describe('runCluster: one PostgreSQL cluster per Jest run', () => {
  jest.setTimeout(120_000);

  it('is started by the first caller and attached by the others; the run teardown stops it', async () => {
    const runFolder = mkdtempSync(join(tmpdir(), 'm3-run-cluster-'));
    try {
      const [first, second] = await Promise.all([runCluster(runFolder), runCluster(runFolder)]);
      expect(second.port).toBe(first.port);
      expect(second.dir).toBe(first.dir);
      // Each caller gets its own schemas in its own shared database, side by side.
      const urls = await Promise.all([first.createSchema(), second.createSchema()]);
      expect(new URL(urls[0]).pathname).not.toBe(new URL(urls[1]).pathname);
      for (const url of urls) {
        const client = new Client({ connectionString: url });
        await client.connect();
        await client.query('CREATE TABLE t (n int)');
        await client.end();
      }

      stopRunCluster(runFolder);
      expect(existsSync(first.dir)).toBe(false);
      const late = new Client({ connectionString: first.url() });
      await expect(late.connect()).rejects.toThrow(/ECONNREFUSED/);
    } finally {
      rmSync(runFolder, { recursive: true, force: true });
    }
  });
});
