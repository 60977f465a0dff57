import type { ExecutionStore } from './ExecutionStore';
import { interruptUnfinished } from './interruptUnfinished';
import type { AttemptCounts, RunRecord } from './records';
import { describeRunProcess, isRunProcessGone, type RunProcess } from './runProcess';

/** A `running` run none of whose processes is alive. */
export interface AbandonedRun {
  readonly run: RunRecord;
  /** Every process that owned it (the run's, and each unfinished shard's), all gone. */
  readonly processes: readonly RunProcess[];
}

/**
 * The processes that own `run`: its own and those of its shards still running or closing it. Null
 * when one of them was saved without processes (an older sf-m3): nobody can tell whether it lives.
 */
async function ownersOf(store: ExecutionStore, run: RunRecord): Promise<RunProcess[] | null> {
  if (run.processes === undefined) return null;
  const owners = [...run.processes];
  for (const shard of (await store.listRunShards?.(run.runId)) ?? []) {
    if (shard.status === 'finished' && shard.closesRun !== true) continue;
    if (shard.processes === undefined) return null;
    owners.push(...shard.processes);
  }
  return owners;
}

/**
 * The `running` runs whose every process is gone (see `isRunProcessGone`): a Jest that was
 * SIGKILLed or crashed and no `m3 test` left to close its run. A run is abandoned only when none
 * of its processes — a sharded run's shards included — is alive or unknowable (another machine).
 */
export async function findAbandonedRuns(
  store: ExecutionStore,
  isGone: (owner: RunProcess) => boolean = isRunProcessGone,
): Promise<AbandonedRun[]> {
  const abandoned: AbandonedRun[] = [];
  for (const run of await store.listRunningRuns()) {
    const owners = await ownersOf(store, run);
    if (owners !== null && owners.length > 0 && owners.every(isGone)) abandoned.push({ run, processes: owners });
  }
  return abandoned;
}

/** Why an abandoned run stopped, in words: `jest (pid 12 on ci-4) ended`. */
export function abandonedReason(abandoned: AbandonedRun): string {
  const names = abandoned.processes.map(describeRunProcess);
  return `${names.join(' and ')} ended without finishing it (killed or crashed)`;
}

/**
 * Closes one abandoned run: its open executions `interrupted`, its open attempts failed, and the
 * run `interrupted` with a problem saying which process ended. Does nothing when the run is no
 * longer `running` (another reader closed it first). Returns the closed run, or null.
 */
export async function closeAbandonedRun(
  store: ExecutionStore,
  abandoned: AbandonedRun,
  now: () => Date = () => new Date(),
): Promise<RunRecord | null> {
  const runId = abandoned.run.runId;
  const reason = abandonedReason(abandoned);
  if ((await store.getRun(runId))?.status !== 'running') return null;
  await interruptUnfinished(store, runId, () => `interrupted: ${reason} while this was running`, now);
  const current = await store.getRun(runId);
  if (current === null || current.status !== 'running') return null;
  // As a finished run counts them: every finished attempt, retries included.
  const counts: Record<keyof AttemptCounts, number> = { passed: 0, failed: 0, skipped: 0, todo: 0 };
  for (const attempt of await store.listAttempts({ runId })) if (attempt.outcome !== null) counts[attempt.outcome] += 1;
  const { processes: _owners, ...rest } = current; // a finished run has no owning processes
  const closed: RunRecord = {
    ...rest,
    status: 'interrupted',
    finishedAt: now().toISOString(),
    counts,
    problems: [
      ...(current.problems ?? []),
      { kind: 'interrupted', testPath: null, message: `the run was interrupted: ${reason}` },
    ],
  };
  await store.saveRun(closed);
  return closed;
}

/** Finds the abandoned runs of `store` and closes each (`closeAbandonedRun`); returns those closed. */
export async function closeAbandonedRuns(
  store: ExecutionStore,
  isGone: (owner: RunProcess) => boolean = isRunProcessGone,
): Promise<RunRecord[]> {
  const closed: RunRecord[] = [];
  for (const abandoned of await findAbandonedRuns(store, isGone)) {
    const run = await closeAbandonedRun(store, abandoned);
    if (run !== null) closed.push(run);
  }
  return closed;
}
