import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import type { ExecutionStore } from '../ExecutionStore';
import { closeAbandonedRuns, findAbandonedRuns } from '../closeAbandonedRuns';
import type { RunProcess } from '../runProcess';
import { allShardsFinished, runClosingShard, type RunShardRecord } from '../runShards';
import { gone, owner, runWith } from './runningRunsSuite';

const shard = (
  index: number,
  status: RunShardRecord['status'],
  extra: Partial<RunShardRecord> = {},
): RunShardRecord => ({
  runId: 'run-sharded',
  index,
  count: 3,
  status,
  startedAt: '2026-03-02T10:00:00.000Z',
  finishedAt: status === 'finished' ? '2026-03-02T10:05:00.000Z' : null,
  failed: false,
  problems: [],
  ...extra,
});

/** `recordRunShard` (optional in `ExecutionStore`) for the stores that coordinate shards. */
export function runShardSuite(name: string, makeStore: () => Promise<ExecutionStore>): void {
  describe(`${name} (run shard contract)`, () => {
    let store: ExecutionStore;
    beforeEach(async () => {
      store = await makeStore();
    });
    afterEach(async () => {
      await store.close();
    });

    it('upserts shards by index and returns every shard of the run in index order', async () => {
      const record = store.recordRunShard!.bind(store);
      expect((await record(shard(2, 'running'))).map((s) => s.index)).toEqual([2]);
      await record({ ...shard(1, 'running'), runId: 'run-other' });
      await record(shard(1, 'running'));
      const problem = { kind: 'file_error' as const, testPath: 'tests/a.test.js', message: 'could not run' };
      const after = await record(shard(2, 'finished', { failed: true, problems: [problem] }));
      expect(after).toEqual([shard(1, 'running'), shard(2, 'finished', { failed: true, problems: [problem] })]);
      expect(allShardsFinished(after, 3)).toBe(false);
      await record(shard(1, 'finished'));
      expect(allShardsFinished(await record(shard(3, 'finished')), 3)).toBe(true);
      expect((await store.listRunShards!('run-sharded')).map((s) => [s.index, s.status])).toEqual([
        [1, 'finished'],
        [2, 'finished'],
        [3, 'finished'],
      ]);
      expect(await store.listRunShards!('run-none')).toEqual([]);
    });

    it('lets exactly one of shards finishing at once see the run finished', async () => {
      const record = store.recordRunShard!.bind(store);
      const results = await Promise.all([1, 2, 3, 4, 5].map((i) => record(shard(i, 'finished', { count: 5 }))));
      expect(results.filter((shards) => allShardsFinished(shards, 5))).toHaveLength(1);
      // The store marks the record that completed the run, once, in that same write; every later
      // read agrees on it, however late a shard settles.
      const closers = results.map((shards, i) => runClosingShard(shards)?.index === i + 1);
      expect(closers.filter(Boolean)).toHaveLength(1);
      const closer = runClosingShard(await store.listRunShards!('run-sharded'));
      expect(closer?.index).toBe(closers.indexOf(true) + 1);
    });

    it('keeps the closing mark on its shard: a caller cannot set it, a later write does not move it', async () => {
      const record = store.recordRunShard!.bind(store);
      expect(runClosingShard(await record(shard(1, 'finished', { closesRun: true })))).toBeUndefined();
      await record(shard(2, 'finished'));
      expect(runClosingShard(await record(shard(3, 'finished')))?.index).toBe(3);
      expect(runClosingShard(await record(shard(2, 'finished', { failed: true })))?.index).toBe(3);
    });

    it("forgets a pruned run's shards: a run recorded again under its id starts with none", async () => {
      await store.saveRun({
        runId: 'run-sharded',
        label: null,
        startedAt: '2026-03-02T10:00:00.000Z',
        finishedAt: '2026-03-02T10:05:00.000Z',
        status: 'passed',
        argv: ['test'],
        counts: { passed: 1, failed: 0, skipped: 0, todo: 0 },
      });
      await store.recordRunShard!(shard(1, 'finished'));
      expect((await store.pruneRuns({ keepRuns: 0 })).runIds).toEqual(['run-sharded']);
      expect(await store.listRunShards!('run-sharded')).toEqual([]);
    });

    it('leaves a sharded run open while any of its unfinished shards has a live process', async () => {
      const s = store;
      const shardWith = (index: number, status: 'running' | 'finished', processes: RunProcess[]) => ({
        runId: 'run-sharded',
        index,
        count: 3,
        status,
        startedAt: '2026-03-01T00:00:00.000Z',
        finishedAt: status === 'finished' ? '2026-03-01T00:01:00.000Z' : null,
        failed: false,
        problems: [],
        processes,
      });
      await s.saveRun(runWith('run-sharded', 'running', '2026-03-01T00:00:00.000Z', [owner(901)]));
      await s.recordRunShard!(shardWith(1, 'finished', [owner(901)]));
      await s.recordRunShard!(shardWith(2, 'running', [owner(902)]));
      await s.recordRunShard!(shardWith(3, 'running', [owner(77)]));
      expect(await findAbandonedRuns(s, gone)).toEqual([]);
      await s.recordRunShard!(shardWith(3, 'running', [owner(903)]));
      const [abandoned] = await findAbandonedRuns(s, gone);
      expect(abandoned!.processes.map((p) => p.pid)).toEqual([901, 902, 903]);
      expect((await closeAbandonedRuns(s, gone)).map((r) => r.runId)).toEqual(['run-sharded']);
    });
  });
}
