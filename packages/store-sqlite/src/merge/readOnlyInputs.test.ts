import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync } from 'node:fs';
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
});
