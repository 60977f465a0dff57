// postgres lane: what a shard that is not the run's last prints, and its exit status.
import type { Redactor } from '@sf-m3/core';
import type { CliIO } from '../CliIO';
import type { JestExit } from '../jest/spawnJest';
import type { JestShard } from './jestShard';
import type { SettledShard } from './settleShard';

/**
 * The run is not finished yet (other shards still run), so there is no run verdict to print: this
 * says where the run stands and exits with this shard's own result (Jest's exit status: a failed
 * test or required evaluation of this shard makes it 1). The last shard prints the whole run.
 */
export function reportUnfinishedShard(
  io: CliIO,
  redactor: Redactor,
  input: { runId: string; shard: JestShard; exit: JestExit; settled: SettledShard; json: boolean },
): number {
  const { runId, shard, exit, settled } = input;
  const status = exit.code === 0 && exit.signal === null ? 0 : 1;
  const summary = {
    runId,
    shard: { index: shard.index, count: shard.count },
    shardVerdict: status === 0 ? 'passed' : 'failed',
    finishedShards: settled.finishedShards,
    runFinished: false,
    jestExit: { code: exit.code, signal: exit.signal },
  };
  if (input.json) {
    io.stdout(`${JSON.stringify(redactor.redactJson(summary), null, 2)}\n`);
  } else {
    io.stdout(
      redactor.redactText(
        `m3 run ${runId}  shard ${shard.index}/${shard.count} ${summary.shardVerdict}\n` +
          `shards      ${settled.finishedShards} of ${shard.count} finished; the run finishes with its last shard\n` +
          `whole run   m3 report ${runId}\n`,
      ),
    );
  }
  return status;
}
