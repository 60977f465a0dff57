import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import {
  ExecutionNotFound,
  ModelValidationError,
  RawEvidenceUnavailable,
  TraceUnavailable,
} from '../../errors/M3Error';
import { newId } from '../../ids';
import type { AggregateValues } from '../AggregationQuery';
import type { ExecutionStore } from '../ExecutionStore';
import type { ExecutionRecord } from '../records';
import { attemptRecord, executionRecord, finishedTrace, storedEvaluation } from './storeFixtures';
import { wilsonInterval } from '../aggregation/wilsonInterval';
import { describeJudgeBudgetContract } from './judgeBudgetSuite';
import { describeExecutionMetadataContract } from './executionMetadataSuite';
import { describeExecutionPagingContract } from './pagingSuite';
import { describeRetentionContract } from './retentionSuite';
import { describeRunningRunsContract } from './runningRunsSuite';
import { seedWorkedExample } from './seedWorkedExample';

/**
 * The behaviour every `ExecutionStore` must share (contract §10). Each test gets a fresh store from
 * `makeStore` and closes it afterwards. Registered through `describeExecutionStoreContract`, which
 * loads this module (and `@jest/globals`) only when a test file calls it.
 */
export function executionStoreSuite(name: string, makeStore: () => Promise<ExecutionStore>): void {
  describe(`${name} (ExecutionStore contract)`, () => {
    let store: ExecutionStore;
    beforeEach(async () => {
      store = await makeStore();
    });
    afterEach(async () => {
      await store.close();
    });
    describeExecutionPagingContract(() => store);
    describeExecutionMetadataContract(() => store);
    describeRunningRunsContract(() => store);

    describe('runs, suites and attempts', () => {
      it('saves runs, replaces them by id and lists newest first', async () => {
        const base = { label: null, finishedAt: null, status: 'running' as const, argv: ['m3', 'test'] };
        const counts = { passed: 0, failed: 0, skipped: 0, todo: 0 };
        await store.saveRun({ ...base, counts, runId: 'run-a', startedAt: '2026-03-01T00:00:00.000Z' });
        await store.saveRun({ ...base, counts, runId: 'run-b', startedAt: '2026-03-02T00:00:00.000Z' });
        await store.saveRun({
          ...base,
          runId: 'run-a',
          startedAt: '2026-03-01T00:00:00.000Z',
          status: 'passed',
          finishedAt: '2026-03-01T00:01:00.000Z',
          counts: { ...counts, passed: 3 },
        });
        expect((await store.listRuns()).map((r) => r.runId)).toEqual(['run-b', 'run-a']);
        expect((await store.listRuns({ limit: 1 })).map((r) => r.runId)).toEqual(['run-b']);
        const a = await store.getRun('run-a');
        expect(a).toMatchObject({ status: 'passed', counts: { passed: 3 }, argv: ['m3', 'test'] });
        expect(await store.getRun('run-missing')).toBeNull();
      });

      it("keeps a run's problems (why it failed or stopped) through a save and a read", async () => {
        const problems = [
          {
            kind: 'file_unfinished' as const,
            testPath: 'tests/a.test.js',
            message: 'test file tests/a.test.js did not finish',
          },
          { kind: 'interrupted' as const, testPath: null, message: 'the run was interrupted: m3 test received SIGINT' },
        ];
        await store.saveRun({
          runId: 'run-p',
          label: null,
          startedAt: '2026-03-01T00:00:00.000Z',
          finishedAt: '2026-03-01T00:01:00.000Z',
          status: 'interrupted',
          argv: [],
          counts: { passed: 0, failed: 1, skipped: 0, todo: 0 },
          problems,
        });
        expect((await store.getRun('run-p'))?.problems).toEqual(problems);
        expect((await store.listRuns())[0]?.problems).toEqual(problems);
      });

      it('registers suites by trimmed name with stable integer ids', async () => {
        const first = await store.registerSuite('  catalog ');
        const again = await store.registerSuite('catalog');
        const other = await store.registerSuite('shipping');
        expect(first.name).toBe('catalog');
        expect(again.suiteId).toBe(first.suiteId);
        expect(Number.isInteger(first.suiteId) && first.suiteId > 0).toBe(true);
        expect(other.suiteId).not.toBe(first.suiteId);
        expect((await store.listSuites()).map((s) => s.name)).toEqual(['catalog', 'shipping']);
        await expect(store.registerSuite('   ')).rejects.toThrow(ModelValidationError);
        await expect(store.registerSuite('x'.repeat(257))).rejects.toThrow(/1 to 256 characters/);
      });

      it('upserts attempts by id and lists them per run', async () => {
        const suite = await store.registerSuite('catalog');
        const attempt = attemptRecord({ runId: 'run-1', suiteId: suite.suiteId, outcome: null, finishedAt: null });
        await store.saveAttempt(attempt);
        await store.saveAttempt({
          ...attempt,
          outcome: 'failed',
          failureMessage: 'expected 1',
          executionIds: ['exec-x'],
        });
        await store.saveAttempt(attemptRecord({ runId: 'run-2' }));
        const listed = await store.listAttempts({ runId: 'run-1' });
        expect(listed).toEqual([
          { ...attempt, outcome: 'failed', failureMessage: 'expected 1', executionIds: ['exec-x'] },
        ]);
      });
    });

    describe('executions and traces', () => {
      it('creates, reads and lists executions; unknown ids throw ExecutionNotFound', async () => {
        const attempt = attemptRecord({ runId: 'run-1' });
        const linked = executionRecord({ runId: 'run-1', attemptId: attempt.attemptId });
        const listedByAttempt = executionRecord({ runId: 'run-1', createdAt: '2026-03-02T10:16:00.000Z' });
        await store.saveAttempt({ ...attempt, executionIds: [listedByAttempt.executionId] });
        await store.createExecution(linked);
        await store.createExecution(listedByAttempt);
        await store.createExecution(executionRecord({ runId: 'run-2' }));
        expect(await store.getExecution(linked.executionId)).toEqual(linked);
        expect((await store.listExecutions({ runId: 'run-1' })).map((e) => e.executionId)).toEqual([
          linked.executionId,
          listedByAttempt.executionId,
        ]);
        expect((await store.listExecutions({ attemptId: attempt.attemptId })).length).toBe(2);
        await expect(store.getExecution('exec-unknown')).rejects.toThrow(ExecutionNotFound);
        await expect(store.getTrace('exec-unknown')).rejects.toThrow(ExecutionNotFound);
        const { finished } = finishedTrace('exec-unknown');
        await expect(store.finishExecution(finished)).rejects.toThrow(ExecutionNotFound);
      });

      it('saves a finished execution and reopens its trace, view, sessions, turns and evidence', async () => {
        const record = executionRecord({ runId: 'run-1' });
        await store.createExecution(record);
        await expect(store.getTrace(record.executionId)).rejects.toThrow(TraceUnavailable);
        const { trace, finished } = finishedTrace(record.executionId);
        const sessionId = newId('session');
        const turnId = newId('turn');
        await store.finishExecution({
          ...finished,
          sessions: [
            {
              sessionId,
              executionId: record.executionId,
              createdAt: finished.finishedAt,
              closedAt: null,
              data: { a: 1 },
            },
          ],
          turns: [
            {
              turnId,
              executionId: record.executionId,
              sessionId,
              index: 0,
              outcome: 'completed',
              data: { text: 'hi' },
            },
          ],
        });
        const saved = await store.getExecution(record.executionId);
        expect(saved).toMatchObject({
          outcome: 'completed',
          finishedAt: finished.finishedAt,
          snapshot: finished.snapshot,
        });
        const reopened = await store.getTrace(record.executionId);
        expect(reopened.toJSON()).toEqual(trace.toJSON());
        expect((await store.listSessions(record.executionId)).map((s) => s.sessionId)).toEqual([sessionId]);
        expect(await store.listTurns(record.executionId)).toEqual([
          { turnId, executionId: record.executionId, sessionId, index: 0, outcome: 'completed', data: { text: 'hi' } },
        ]);
        const [blob] = finished.evidence;
        expect(blob).toBeDefined();
        const raw = await store.readRawEvidence(blob!.reference);
        expect(raw.content).toBe(blob!.bytes.toString('utf8'));
        expect(raw).toMatchObject({ truncated: false, sizeBytes: blob!.bytes.length, redacted: true });
        const cut = await store.readRawEvidence(blob!.reference, { maxBytes: 5 });
        expect(cut).toMatchObject({
          content: blob!.bytes.subarray(0, 5).toString('utf8'),
          returnedSizeBytes: 5,
          truncated: true,
        });
        const unknown = { ...blob!.reference, sha256: 'f'.repeat(64), evidenceId: `re:${'f'.repeat(64)}` };
        await expect(store.readRawEvidence(unknown)).rejects.toThrow(RawEvidenceUnavailable);
      });

      it("keeps a direct execution's negotiated protocol revision and era on its snapshot", async () => {
        const record = executionRecord({ runId: 'run-eras' });
        await store.createExecution(record);
        const { finished } = finishedTrace(record.executionId);
        const protocol = { protocolVersion: '2026-07-28', era: 'modern' };
        await store.finishExecution({ ...finished, snapshot: { ...finished.snapshot, protocol } });
        expect((await store.getExecution(record.executionId)).snapshot).toMatchObject({ protocol });
        const [listed] = await store.listExecutions({ runId: 'run-eras' });
        expect(listed?.snapshot).toMatchObject({ protocol });
      });

      it('reopens a trace view that deep-equals the original', async () => {
        const record = executionRecord();
        await store.createExecution(record);
        const { trace, finished } = finishedTrace(record.executionId);
        await store.finishExecution(finished);
        const view = await store.getTraceView(record.executionId);
        expect(JSON.parse(JSON.stringify(view))).toEqual(JSON.parse(JSON.stringify(trace.view())));
      });
    });

    describe('evaluations', () => {
      let execution: ExecutionRecord;
      beforeEach(async () => {
        execution = executionRecord({ runId: 'run-1', caseId: 'case-1' });
        await store.createExecution(execution);
      });

      it('keeps rows append-only and returns the latest row per lineage', async () => {
        const evaluator = 'project.answer.v1';
        const first = storedEvaluation(
          { evaluator, status: 'failed', createdAt: '2026-03-02T11:00:00.000Z' },
          {},
          execution,
        );
        const second = storedEvaluation(
          { evaluator, status: 'passed', createdAt: '2026-03-02T11:00:05.000Z' },
          {},
          execution,
        );
        const otherSubject = storedEvaluation({ evaluator, subjectDigest: 'b'.repeat(64) }, {}, execution);
        const onTurn = storedEvaluation({ evaluator, turnId: 'turn-1' }, {}, execution);
        await store.saveEvaluation(second);
        await store.saveEvaluation(first); // arrives late: still older
        await store.saveEvaluation(otherSubject);
        await store.saveEvaluation(onTurn);
        await expect(store.saveEvaluation(first)).rejects.toThrow(/already exists/);
        const latest = await store.listEvaluations({ executionId: execution.executionId });
        expect(latest.map((r) => r.evaluationId).sort()).toEqual(
          [second.result.evaluationId, otherSubject.result.evaluationId, onTurn.result.evaluationId].sort(),
        );
        expect(latest.find((r) => r.subjectDigest === 'a'.repeat(64) && r.turnId === null)?.status).toBe('passed');
        expect(await store.listEvaluations({ evaluator: 'other.v1' })).toEqual([]);
        expect((await store.listEvaluations({ runId: 'run-1' })).length).toBe(3);
      });

      it('breaks createdAt ties by the larger evaluation id', async () => {
        const at = '2026-03-02T11:00:00.000Z';
        const low = storedEvaluation(
          { evaluator: 'e.v1', evaluationId: 'eval-1', status: 'failed', createdAt: at },
          {},
          execution,
        );
        const high = storedEvaluation(
          { evaluator: 'e.v1', evaluationId: 'eval-2', status: 'passed', createdAt: at },
          {},
          execution,
        );
        await store.saveEvaluation(high);
        await store.saveEvaluation(low);
        expect(
          (await store.listEvaluations({ executionId: execution.executionId })).map((r) => r.evaluationId),
        ).toEqual(['eval-2']);
      });

      it('keeps required sticky per lineage and only for that lineage', async () => {
        const lineage = {
          executionId: execution.executionId,
          turnId: null,
          evaluator: 'e.v1',
          subjectDigest: 'c'.repeat(64),
        };
        expect(await store.isRequiredLineage(lineage)).toBe(false);
        await store.saveEvaluation(storedEvaluation({ ...lineage, required: true, status: 'failed' }, {}, execution));
        await store.saveEvaluation(storedEvaluation({ ...lineage, required: false, status: 'passed' }, {}, execution));
        expect(await store.isRequiredLineage(lineage)).toBe(true);
        expect(await store.isRequiredLineage({ ...lineage, subjectDigest: 'd'.repeat(64) })).toBe(false);
        expect(await store.isRequiredLineage({ ...lineage, turnId: 'turn-1' })).toBe(false);
      });
    });

    describe('aggregation', () => {
      it('matches the worked example of upstream §5.5 to the count', async () => {
        const report = await seedWorkedExample(store);
        const expectValues = (values: AggregateValues, expected: Partial<AggregateValues>): void => {
          expect(values).toMatchObject(expected);
        };
        expectValues(report.totals, {
          evaluationCount: 3,
          expectedCount: 4,
          passedCount: 2,
          passRate: 0.5,
          statusCounts: { passed: 2, failed: 0, inconclusive: 0, error: 1, not_run: 0 },
          missingRequiredCount: 1,
          pendingRequiredCount: 1,
          executionCount: 5,
          scoreCount: 2,
          averageScore: 1,
          caseCount: 3,
          casesAllPassed: 0,
          casesAnyPassed: 2,
        });
        expect(report.totals.passRateInterval![0]).toBeCloseTo(0.15, 3);
        expect(report.totals.passRateInterval![1]).toBeCloseTo(0.85, 3);
        expect(report.groups.map((g) => g.key)).toEqual([
          { 'metadata.harness_config': 'A' },
          { 'metadata.harness_config': 'B' },
        ]);
        expectValues(report.groups[0]!.values, {
          evaluationCount: 2,
          expectedCount: 2,
          passRate: 1,
          executionCount: 2,
          missingRequiredCount: 0,
          pendingRequiredCount: 0,
          casesAllPassed: 2,
          casesAnyPassed: 2,
        });
        expectValues(report.groups[1]!.values, {
          evaluationCount: 1,
          expectedCount: 2,
          passRate: 0,
          missingRequiredCount: 1,
          pendingRequiredCount: 1,
          executionCount: 3,
          statusCounts: { passed: 0, failed: 0, inconclusive: 0, error: 1, not_run: 0 },
          averageScore: null,
          scoreCount: 0,
          caseCount: 3,
          casesAllPassed: 0,
          casesAnyPassed: 0,
        });
      });

      it('leaves synthetic requirements out when status is filtered or grouped', async () => {
        await seedWorkedExample(store);
        const filtered = await store.aggregateEvaluations({
          filters: { evaluator: ['example.math.v1'], status: ['passed', 'error'] },
        });
        expect(filtered.totals).toMatchObject({
          evaluationCount: 3,
          expectedCount: 3,
          missingRequiredCount: 0,
          pendingRequiredCount: 0,
        });
        const grouped = await store.aggregateEvaluations({
          filters: { evaluator: ['example.math.v1'], runId: ['run-worked-example'] },
          groupBy: ['status'],
        });
        expect(grouped.groups.map((g) => [g.key.status, g.values.evaluationCount])).toEqual([
          ['error', 1],
          ['passed', 2],
        ]);
      });

      it('groups by evaluator, null labels and UTC time buckets, and honours from/to', async () => {
        const early = executionRecord({ runId: 'run-t', createdAt: '2026-03-01T23:30:00.000Z' }); // a Sunday
        const late = executionRecord({ runId: 'run-t', createdAt: '2026-03-02T00:30:00.000Z' }); // a Monday
        await store.createExecution(early);
        await store.createExecution(late);
        await store.saveEvaluation(
          storedEvaluation({ evaluator: 'a.v1', status: 'passed', score: 0.5 }, { model: 'm1' }, early),
        );
        await store.saveEvaluation(storedEvaluation({ evaluator: 'a.v1', status: 'failed', score: 0 }, {}, late));
        await store.saveEvaluation(storedEvaluation({ evaluator: 'b.v1', status: 'inconclusive' }, {}, late));

        const byEvaluator = await store.aggregateEvaluations({ groupBy: ['evaluator', 'model'] });
        expect(byEvaluator.groups.map((g) => [g.key.evaluator, g.key.model, g.values.evaluationCount])).toEqual([
          ['a.v1', null, 1],
          ['a.v1', 'm1', 1],
          ['b.v1', null, 1],
        ]);
        const q = { filters: { evaluator: ['a.v1'] } } as const;
        const days = await store.aggregateEvaluations({ ...q, groupBy: ['time.day'] });
        expect(days.groups.map((g) => g.key['time.day'])).toEqual(['2026-03-01', '2026-03-02']);
        const hours = await store.aggregateEvaluations({ ...q, groupBy: ['time.hour'] });
        expect(hours.groups.map((g) => g.key['time.hour'])).toEqual(['2026-03-01T23:00:00Z', '2026-03-02T00:00:00Z']);
        const weeks = await store.aggregateEvaluations({ ...q, groupBy: ['time.week'] });
        expect(weeks.groups.map((g) => g.key['time.week'])).toEqual(['2026-02-23', '2026-03-02']);
        const window = await store.aggregateEvaluations({
          ...q,
          from: '2026-03-02T00:00:00Z',
          to: '2026-03-03T00:00:00Z',
        });
        expect(window.totals).toMatchObject({ evaluationCount: 1, passedCount: 0, averageScore: 0 });
        const both = await store.aggregateEvaluations(q);
        expect(both.totals.averageScore).toBeCloseTo(0.25, 10);
        expect(both.groups).toEqual([]);
      });

      it('counts pass^k and pass@k over trials of each case', async () => {
        const evaluator = 'trial.v1';
        const verdicts: Record<string, ('passed' | 'failed')[]> = {
          'case-all': ['passed', 'passed', 'passed'],
          'case-some': ['passed', 'failed', 'passed'],
          'case-none': ['failed', 'failed', 'failed'],
        };
        for (const [caseId, statuses] of Object.entries(verdicts)) {
          for (const [trial, status] of statuses.entries()) {
            const ex = executionRecord({ caseId, labels: { trial: String(trial + 1) } as ExecutionRecord['labels'] });
            await store.createExecution(ex);
            await store.saveEvaluation(storedEvaluation({ evaluator, status }, {}, ex));
          }
        }
        const report = await store.aggregateEvaluations({ filters: { evaluator: [evaluator] }, groupBy: ['trial'] });
        expect(report.totals).toMatchObject({
          caseCount: 3,
          executionCount: 9,
          casesAllPassed: 1,
          casesAnyPassed: 2,
          passedCount: 5,
        });
        expect(report.totals.passRate).toBeCloseTo(5 / 9, 12);
        const [lo, hi] = wilsonInterval(5, 9)!;
        expect(report.totals.passRateInterval![0]).toBeCloseTo(lo, 12);
        expect(report.totals.passRateInterval![1]).toBeCloseTo(hi, 12);
        expect(report.groups.map((g) => [g.key.trial, g.values.passedCount, g.values.casesAllPassed])).toEqual([
          ['1', 2, 2],
          ['2', 1, 1],
          ['3', 2, 2],
        ]);
      });

      it('rejects bad queries with ModelValidationError naming the label', async () => {
        const bad: [unknown, RegExp][] = [
          [{ filters: { evaluator: ['e'], flavour: ['x'] } }, /unknown aggregation label 'flavour'/],
          [{ filters: { runId: ['r'] } }, /evaluator/],
          [{ filters: { evaluator: ['a', 'b'] } }, /exactly one evaluator/],
          [{ filters: { evaluator: ['e'] }, groupBy: ['colour'] }, /'colour'/],
          [{ filters: { evaluator: ['e'], 'time.day': ['2026-01-01'] } }, /'time.day'/],
          [{ filters: { evaluator: ['e'] }, groupBy: ['time.day', 'time.week'] }, /at most one time bucket/],
          [{ filters: { evaluator: ['e'] }, groupBy: ['time.month'] }, /'time.month'/],
          [{ filters: { evaluator: ['e'] }, groupBy: ['model', 'model'] }, /'model' is grouped by twice/],
          [{ filters: { evaluator: ['e'], model: [] } }, /'model' needs a non-empty list/],
          [{ filters: { evaluator: ['e'] }, from: '2026-03-02T00:00:00Z', to: '2026-03-01T00:00:00Z' }, /'from'/],
        ];
        for (const [query, message] of bad) {
          const attempt = store.aggregateEvaluations(query as never);
          await expect(attempt).rejects.toThrow(ModelValidationError);
          await expect(store.aggregateEvaluations(query as never)).rejects.toThrow(message);
        }
      });
    });

    describeJudgeBudgetContract(() => store);
    describeRetentionContract(() => store);

    it('closes idempotently and refuses work afterwards', async () => {
      await store.close();
      await store.close();
      await expect(store.listRuns()).rejects.toThrow(/closed/);
    });
  });
}
