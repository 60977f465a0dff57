import { describe, expect, it } from '@jest/globals';
import { ExecutionNotFound, ModelValidationError, RawEvidenceUnavailable } from '../../errors/M3Error';
import { newId } from '../../ids';
import { Redactor } from '../../redaction/Redactor';
import { TraceRecorder } from '../../trace/TraceRecorder';
import type { EvidenceRef } from '../../trace/EvidenceRef';
import type { ExecutionStore, FinishedExecution } from '../ExecutionStore';
import type { RunRecord, RunStatus } from '../records';
import { attemptRecord, executionRecord, storedEvaluation } from './storeFixtures';

const EVALUATOR = 'retention.check.v1';

/** A finished execution whose one raw frame is `raw`: equal frames share one evidence blob. */
function finishedWith(executionId: string, raw: string): FinishedExecution {
  const recorder = new TraceRecorder({ executionId, redactor: new Redactor([]) });
  recorder.record('execution.created', {
    phase: 'preflight',
    payload: { traceId: newId('trace'), runtime: 'direct', runId: null, suiteName: null, caseId: null, servers: [] },
  });
  recorder.record('mcp.request', {
    direction: 'client_to_server',
    server: 'catalog',
    jsonrpcId: 1,
    phase: 'mcp_call',
    payload: { method: 'tools/call', params: { name: 'normalize' } },
    raw,
  });
  const trace = recorder.finish('completed');
  return {
    executionId,
    outcome: 'completed',
    finishedAt: '2026-03-02T10:15:02.000Z',
    snapshot: { lifecycle: 'finished' },
    trace,
    evidence: [...recorder.evidence],
    sessions: [
      { sessionId: newId('session'), executionId, createdAt: '2026-03-02T10:15:01.000Z', closedAt: null, data: {} },
    ],
    turns: [],
  };
}

/** What one seeded run left in the store. */
interface SeededRun {
  readonly runId: string;
  readonly executionIds: string[];
  /** Evidence only this run saved, and evidence every seeded run saved. */
  readonly ownEvidence: EvidenceRef;
  readonly sharedEvidence: EvidenceRef;
}

/** One run with an attempt and two executions in `suites`, each evaluated (one of them twice). */
async function seedRun(
  store: ExecutionStore,
  runId: string,
  startedAt: string,
  suites: readonly string[],
  status: RunStatus = 'passed',
): Promise<SeededRun> {
  const run: RunRecord = {
    runId,
    label: null,
    startedAt,
    finishedAt: status === 'running' ? null : startedAt,
    status,
    argv: ['test'],
    counts: { passed: 2, failed: 0, skipped: 0, todo: 0 },
  };
  await store.saveRun(run);
  const executionIds: string[] = [];
  let ownEvidence: EvidenceRef | null = null;
  let sharedEvidence: EvidenceRef | null = null;
  for (const [i, suiteName] of suites.entries()) {
    const suite = await store.registerSuite(suiteName);
    const attempt = attemptRecord({ runId, suiteId: suite.suiteId, caseId: `case-${i}`, startedAt });
    const execution = executionRecord({ runId, suiteName, caseId: `case-${i}`, attemptId: attempt.attemptId });
    await store.saveAttempt({ ...attempt, executionIds: [execution.executionId] });
    await store.createExecution(execution);
    const own = finishedWith(execution.executionId, `{"run":"${runId}","i":${i}}`);
    const shared = finishedWith(execution.executionId, '{"shared":true}');
    await store.finishExecution({ ...own, evidence: [...own.evidence, ...shared.evidence] });
    ownEvidence ??= own.evidence[0]!.reference;
    sharedEvidence ??= shared.evidence[0]!.reference;
    await store.saveEvaluation(storedEvaluation({ evaluator: EVALUATOR, status: 'failed' }, {}, execution));
    await store.saveEvaluation(storedEvaluation({ evaluator: EVALUATOR, status: 'passed' }, {}, execution));
    executionIds.push(execution.executionId);
  }
  return { runId, executionIds, ownEvidence: ownEvidence!, sharedEvidence: sharedEvidence! };
}

/** The evaluation count of every run, from aggregation (the rows a report reads). */
async function evaluationsByRun(store: ExecutionStore): Promise<Record<string, number>> {
  const report = await store.aggregateEvaluations({ filters: { evaluator: [EVALUATOR] }, groupBy: ['runId'] });
  return Object.fromEntries(report.groups.map((g) => [String(g.key.runId), g.values.evaluationCount]));
}

/**
 * `pruneRuns` (contract §20 retention), shared by every store; `store` returns the contract's fresh
 * store of the current test.
 */
export function describeRetentionContract(store: () => ExecutionStore): void {
  describe('retention (pruneRuns)', () => {
    it('keeps the N newest runs and deletes the others with everything only they reference', async () => {
      const s = store();
      const old = await seedRun(s, 'run-old', '2026-01-01T00:00:00.000Z', ['only-old', 'shared']);
      const mid = await seedRun(s, 'run-mid', '2026-02-01T00:00:00.000Z', ['shared']);
      const latest = await seedRun(s, 'run-new', '2026-03-01T00:00:00.000Z', ['shared', 'only-new']);

      const report = await s.pruneRuns({ keepRuns: 2 });
      expect(report).toMatchObject({ dryRun: false, runIds: ['run-old'], executionCount: 2, evaluationCount: 2 });
      expect((await s.listRuns()).map((r) => r.runId)).toEqual(['run-new', 'run-mid']);
      expect(await s.getRun('run-old')).toBeNull();
      expect(await s.listAttempts({ runId: 'run-old' })).toEqual([]);
      expect(await s.listExecutions({ runId: 'run-old' })).toEqual([]);
      for (const id of old.executionIds) {
        await expect(s.getExecution(id)).rejects.toThrow(ExecutionNotFound);
        await expect(s.getTrace(id)).rejects.toThrow(ExecutionNotFound);
        expect(await s.listEvaluations({ executionId: id })).toEqual([]);
      }
      expect(await s.listEvaluations({ runId: 'run-old' })).toEqual([]);
      await expect(s.readRawEvidence(old.ownEvidence)).rejects.toThrow(RawEvidenceUnavailable);
      // Evidence, suites and rows the kept runs use stay.
      expect((await s.readRawEvidence(old.sharedEvidence)).content).toBe('{"shared":true}');
      expect((await s.readRawEvidence(mid.ownEvidence)).content).toBe('{"run":"run-mid","i":0}');
      expect((await s.listSuites()).map((x) => x.name)).toEqual(['shared', 'only-new']);
      expect(await s.listExecutions({ runId: 'run-new' })).toHaveLength(2);
      expect((await s.getTrace(latest.executionIds[0]!)).events.length).toBeGreaterThan(0);
      expect(await s.listSessions(mid.executionIds[0]!)).toHaveLength(1);
      expect(await evaluationsByRun(s)).toEqual({ 'run-mid': 1, 'run-new': 2 });
      const sharedId = (await s.listSuites()).find((x) => x.name === 'shared')?.suiteId;
      const newAttempts = await s.listAttempts({ runId: 'run-new' });
      expect(newAttempts.find((a) => a.caseId === 'case-0')?.suiteId).toBe(sharedId);
    });

    it('deletes the runs that started before olderThan; a dry run reports the same and changes nothing', async () => {
      const s = store();
      await seedRun(s, 'run-a', '2026-01-01T00:00:00.000Z', ['a']);
      await seedRun(s, 'run-b', '2026-01-20T00:00:00.000Z', ['b']);
      await seedRun(s, 'run-c', '2026-02-10T00:00:00.000Z', ['c']);
      const before = {
        runs: await s.listRuns(),
        suites: await s.listSuites(),
        evaluations: await evaluationsByRun(s),
      };

      const dry = await s.pruneRuns({ olderThan: '2026-02-01T00:00:00Z' }, { dryRun: true });
      expect(dry).toMatchObject({ dryRun: true, runIds: ['run-b', 'run-a'], executionCount: 2, evaluationCount: 2 });
      expect(await s.listRuns()).toEqual(before.runs);
      expect(await s.listSuites()).toEqual(before.suites);
      expect(await evaluationsByRun(s)).toEqual(before.evaluations);

      const done = await s.pruneRuns({ olderThan: '2026-02-01T00:00:00Z' });
      expect(done).toMatchObject({ dryRun: false, runIds: dry.runIds, executionCount: 2, evaluationCount: 2 });
      expect((await s.listRuns()).map((r) => r.runId)).toEqual(['run-c']);
      expect((await s.listSuites()).map((x) => x.name)).toEqual(['c']);
      expect(await evaluationsByRun(s)).toEqual({ 'run-c': 1 });
      expect((await s.pruneRuns({ olderThan: '2026-02-01T00:00:00Z' })).runIds).toEqual([]);
    });

    it('keeps a running run unless asked, and says which it kept', async () => {
      const s = store();
      await seedRun(s, 'run-live', '2026-01-01T00:00:00.000Z', ['live'], 'running');
      await seedRun(s, 'run-done', '2026-01-02T00:00:00.000Z', ['done']);
      await seedRun(s, 'run-next', '2026-01-03T00:00:00.000Z', ['next']);

      const kept = await s.pruneRuns({ keepRuns: 1 });
      expect(kept).toMatchObject({ runIds: ['run-done'], skippedRunIds: ['run-live'] });
      expect((await s.listRuns()).map((r) => r.runId)).toEqual(['run-next', 'run-live']);

      const forced = await s.pruneRuns({ keepRuns: 1 }, { includeRunning: true });
      expect(forced.runIds).toEqual(['run-live']);
      expect(forced.skippedRunIds ?? []).toEqual([]);
      expect((await s.listRuns()).map((r) => r.runId)).toEqual(['run-next']);
      expect((await s.listSuites()).map((x) => x.name)).toEqual(['next']);
    });

    it('keepRuns larger than the history, or 0, prunes nothing or everything finished', async () => {
      const s = store();
      await seedRun(s, 'run-1', '2026-01-01T00:00:00.000Z', ['x']);
      await seedRun(s, 'run-2', '2026-01-02T00:00:00.000Z', ['x']);
      expect(await s.pruneRuns({ keepRuns: 5 })).toMatchObject({ runIds: [], executionCount: 0, evaluationCount: 0 });
      expect(await s.listRuns()).toHaveLength(2);
      expect((await s.pruneRuns({ keepRuns: 0 })).runIds).toEqual(['run-2', 'run-1']);
      expect(await s.listRuns()).toEqual([]);
      expect(await s.listSuites()).toEqual([]);
      expect(await evaluationsByRun(s)).toEqual({});
    });

    it('refuses a selection that is not exactly one of keepRuns (a whole number) and olderThan (an instant)', async () => {
      const s = store();
      const bad: [unknown, RegExp][] = [
        [{}, /exactly one of keepRuns and olderThan/],
        [{ keepRuns: 1, olderThan: '2026-01-01T00:00:00Z' }, /exactly one/],
        [{ keepRuns: -1 }, /keepRuns must be a whole number/],
        [{ keepRuns: 1.5 }, /keepRuns must be a whole number/],
        [{ keepRuns: '3' }, /keepRuns must be a whole number/],
        [{ olderThan: '30d' }, /olderThan must be an ISO-8601 timestamp/],
      ];
      for (const [selection, message] of bad) {
        await expect(s.pruneRuns(selection as never)).rejects.toThrow(ModelValidationError);
        await expect(s.pruneRuns(selection as never)).rejects.toThrow(message);
      }
    });
  });
}
