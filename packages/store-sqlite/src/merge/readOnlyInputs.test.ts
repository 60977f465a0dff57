import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SQLiteExecutionStore } from '../SQLiteExecutionStore';
import { canRunUnprivileged, unprivileged } from '../unprivileged.testkit';

// File permissions only bind an unprivileged process: the merge runs in a child through unprivileged().
const MERGE = join(__dirname, '..', '__fixtures__', 'mergeStores.js');
const itWithPermissions = canRunUnprivileged() ? it : it.skip;
const root = mkdtempSync(join(tmpdir(), 'm3-merge-ro-'));

async function shard(path: string, runId: string): Promise<void> {
  const store = new SQLiteExecutionStore(path);
  await store.saveRun({
    runId,
    label: null,
    startedAt: '2026-03-02T10:00:00.000Z',
    finishedAt: '2026-03-02T10:01:00.000Z',
    status: 'passed',
    argv: [],
    counts: { passed: 0, failed: 0, skipped: 0, todo: 0 },
  });
  await store.close();
}

describe('mergeResultsDatabases on read-only inputs', () => {
  itWithPermissions(
    'reads a read-only shard file in a read-only folder and creates nothing beside it',
    async () => {
      const folder = join(root, 'shards');
      mkdirSync(folder);
      const input = join(folder, 'shard-1.sqlite');
      await shard(input, 'run-ro');
      chmodSync(input, 0o444);
      chmodSync(folder, 0o555);
      try {
        const { command, args } = unprivileged(process.execPath, [MERGE, join(root, 'out.sqlite'), input]);
        // The child compiles the TypeScript sources it loads: slow on a loaded machine.
        const child = spawnSync(command, args, { encoding: 'utf8', timeout: 240_000 });
        expect({ signal: child.signal, stderr: child.stderr }).toEqual({ signal: null, stderr: '' });
        expect(JSON.parse(child.stdout.trim())).toEqual({ ok: true, runIds: ['run-ro'] });
        expect(readdirSync(folder)).toEqual(['shard-1.sqlite']);
      } finally {
        chmodSync(folder, 0o755);
      }
    },
    300_000,
  );

  itWithPermissions(
    'reads a copied shard file with its -wal and no -shm in a read-only folder through a private copy',
    async () => {
      const live = join(root, 'live.sqlite');
      await shard(live, 'run-checkpointed');
      const folder = join(root, 'copied');
      mkdirSync(folder);
      const input = join(folder, 'shard-2.sqlite');
      // Written while the store is open, this run is only in the -wal of the copy.
      const store = new SQLiteExecutionStore(live);
      await store.saveRun({ ...(await store.getRun('run-checkpointed'))!, runId: 'run-in-wal' });
      for (const suffix of ['', '-wal']) copyFileSync(`${live}${suffix}`, `${input}${suffix}`);
      await store.close();
      for (const name of readdirSync(folder)) chmodSync(join(folder, name), 0o444);
      chmodSync(folder, 0o555);
      const before = [readFileSync(input), readFileSync(`${input}-wal`)];
      try {
        const { command, args } = unprivileged(process.execPath, [MERGE, join(root, 'out-2.sqlite'), input]);
        const child = spawnSync(command, args, { encoding: 'utf8', timeout: 240_000 });
        expect({ signal: child.signal, stderr: child.stderr }).toEqual({ signal: null, stderr: '' });
        expect(JSON.parse(child.stdout.trim())).toEqual({
          ok: true,
          runIds: ['run-in-wal', 'run-checkpointed'],
          notices: [expect.stringContaining(`${input} has a -wal but no -shm in a read-only folder`)],
        });
        expect(readdirSync(folder)).toEqual(['shard-2.sqlite', 'shard-2.sqlite-wal']);
        expect([readFileSync(input), readFileSync(`${input}-wal`)]).toEqual(before);
      } finally {
        chmodSync(folder, 0o755);
      }
    },
    300_000,
  );
});
