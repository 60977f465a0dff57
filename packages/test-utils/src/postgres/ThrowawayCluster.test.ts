import { existsSync } from 'node:fs';
import { Client } from 'pg';
import { ThrowawayCluster } from './ThrowawayCluster';

describe('ThrowawayCluster', () => {
  jest.setTimeout(120_000);

  it('starts a real server on a loopback port with password login, and removes its folder when stopped', async () => {
    const cluster = await ThrowawayCluster.start();
    try {
      const url = await cluster.createDatabase('probe');
      const client = new Client({ connectionString: url });
      await client.connect();
      const { rows } = await client.query<{ db: string; v: string }>(
        'SELECT current_database() AS db, current_setting($1) AS v',
        ['server_version_num'],
      );
      await client.end();
      expect(rows[0]!.db).toBe('probe');
      expect(Number(rows[0]!.v)).toBeGreaterThanOrEqual(120000);
      const wrong = new Client({ connectionString: url.replace(/:[^:@/]+@/, ':wrong@') });
      await expect(wrong.connect()).rejects.toThrow(/password authentication failed/);
      expect(existsSync(cluster.dir)).toBe(true);
    } finally {
      await cluster.stop();
    }
    expect(existsSync(cluster.dir)).toBe(false);
  });
});
