// Contract cases of `listRunningRuns` and of closing runs whose processes are gone
// (closeAbandonedRuns), shared by every ExecutionStore; registered from executionStoreSuite.ts.
import { describe, expect, it } from '@jest/globals';
import { closeAbandonedRuns, findAbandonedRuns } from '../closeAbandonedRuns';
import type { ExecutionStore } from '../ExecutionStore';
import type { RunRecord, RunStatus } from '../records';
import type { RunProcess } from '../runProcess';
import { attemptRecord, executionRecord } from './storeFixtures';

/** A process that owned a run, on the fake machine of these cases. */
export const owner = (pid: number, role = 'jest'): RunProcess => ({
  role,
  host: 'ci-4',
  pidSpace: 'boot/pid:[1]',
  pid,
  startTicks: 1000 + pid,
});

/** A run record with `processes` when given. */
export const runWith = (runId: string, status: RunStatus, startedAt: string, processes?: RunProcess[]): RunRecord => ({
  runId,
  label: null,
  startedAt,
  finishedAt: status === 'running' ? null : startedAt,
  status,
  argv: ['jest'],
  counts: { passed: 0, failed: 0, skipped: 0, todo: 0 },
  ...(processes !== undefined && { processes }),
});

/** Processes 900–999 are "gone" in these cases; the rest live. */
export const gone = (p: RunProcess): boolean => p.pid >= 900 && p.pid < 1000;

/** Registers the running-run cases; `store()` is the fresh store of the current test. */
export function describeRunningRunsContract(store: () => ExecutionStore): void {
  describe('running runs and runs whose processes are gone', () => {
    it('lists the runs still running, newest first, and keeps their processes', async () => {
      await store().saveRun(runWith('run-old', 'running', '2026-03-01T00:00:00.000Z', [owner(901)]));
      await store().saveRun(runWith('run-done', 'passed', '2026-03-02T00:00:00.000Z'));
      await store().saveRun(
        runWith('run-new', 'running', '2026-03-03T00:00:00.000Z', [owner(12), owner(11, 'm3 test')]),
      );
      const running = await store().listRunningRuns();
      expect(running.map((r) => r.runId)).toEqual(['run-new', 'run-old']);
      expect(running[0]!.processes).toEqual([owner(12), owner(11, 'm3 test')]);
      await store().saveRun(runWith('run-new', 'failed', '2026-03-03T00:00:00.000Z'));
      expect((await store().listRunningRuns()).map((r) => r.runId)).toEqual(['run-old']);
    });

    it('closes a run whose every process is gone: its work interrupted, the run interrupted', async () => {
      const s = store();
      await s.saveRun(runWith('run-killed', 'running', '2026-03-01T00:00:00.000Z', [owner(901)]));
      await s.saveRun(
        runWith('run-alive', 'running', '2026-03-01T00:00:00.000Z', [owner(902, 'jest'), owner(50, 'm3 test')]),
      );
      await s.saveRun(runWith('run-older-sf-m3', 'running', '2026-03-01T00:00:00.000Z'));
      const open = attemptRecord({ runId: 'run-killed', outcome: null, durationMs: null });
      const done = attemptRecord({ runId: 'run-killed', outcome: 'passed' });
      await s.saveAttempt(open);
      await s.saveAttempt(done);
      const execution = executionRecord({ runId: 'run-killed', attemptId: open.attemptId });
      await s.createExecution(execution);

      expect((await findAbandonedRuns(s, gone)).map((a) => a.run.runId)).toEqual(['run-killed']);
      const closed = await closeAbandonedRuns(s, gone);
      expect(closed.map((r) => r.runId)).toEqual(['run-killed']);
      const saved = await s.getRun('run-killed');
      expect(saved).toMatchObject({ status: 'interrupted', counts: { passed: 1, failed: 1, skipped: 0, todo: 0 } });
      expect(saved!.finishedAt).not.toBeNull();
      expect(saved!.problems).toEqual([
        {
          kind: 'interrupted',
          testPath: null,
          message: 'the run was interrupted: jest (pid 901 on ci-4) ended without finishing it (killed or crashed)',
        },
      ]);
      expect((await s.getExecution(execution.executionId)).outcome).toBe('interrupted');
      const attempt = (await s.listAttempts({ runId: 'run-killed' })).find((a) => a.attemptId === open.attemptId);
      expect(attempt).toMatchObject({ outcome: 'failed', executionIds: [execution.executionId] });
      expect(attempt!.failureMessage).toContain('interrupted: jest (pid 901 on ci-4) ended');
      expect((await s.listRunningRuns()).map((r) => r.runId).sort()).toEqual(['run-alive', 'run-older-sf-m3']);
      // A second reader finds nothing left to close.
      expect(await closeAbandonedRuns(s, gone)).toEqual([]);
    });
  });
}
