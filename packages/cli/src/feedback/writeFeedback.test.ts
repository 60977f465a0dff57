import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InMemoryExecutionStore, Redactor } from '@sf-m3/core';
import { buildRunSummary } from '../summary/buildRunSummary';
import { seedRun } from '../summary/runFixtures.testkit';
import { buildFeedback, feedbackPath, writeFeedback } from './writeFeedback';

describe('feedback.json', () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'm3-feedback-'));
  });
  afterEach(() => {
    rmSync(root, { recursive: true, force: true });
  });

  test('holds the run, suites, attempts, evaluation stats, required failures and comparison, redacted', async () => {
    const store = new InMemoryExecutionStore();
    const redactor = new Redactor(['tok-secret-9876']);
    const baselineId = await seedRun(store, [{ suite: 'shipping', fullName: 'shipping local', outcome: 'passed' }]);
    const runId = await seedRun(store, [
      {
        suite: 'shipping',
        fullName: 'shipping local',
        outcome: 'failed',
        failureMessage: 'header was Bearer tok-secret-9876',
        evaluations: [
          { evaluator: 'm3.expect.toHaveToolCall', status: 'passed' },
          { evaluator: 'project.gate.v1', status: 'failed', required: true, rationale: 'saw tok-secret-9876' },
        ],
      },
    ]);
    const { summary, attempts } = await buildRunSummary(store, {
      runId,
      redactor,
      resultsDb: '.m3/executions.sqlite',
      cwd: '/project',
      baselineRunId: baselineId,
      jestExit: { code: 1, signal: null },
    });
    const written = writeFeedback(root, buildFeedback(summary, attempts, redactor));
    expect(written).toBe(feedbackPath(root, runId));
    expect(written).toBe(join(root, '.m3', 'reports', runId, 'feedback.json'));
    expect(readdirSync(join(root, '.m3', 'reports', runId))).toEqual(['feedback.json']);

    const text = readFileSync(written, 'utf8');
    expect(text.endsWith('}\n')).toBe(true);
    expect(text).not.toContain('tok-secret-9876');
    const feedback = JSON.parse(text);
    expect(Object.keys(feedback)).toEqual([
      'agentStats',
      'attemptCounts',
      'attempts',
      'comparison',
      'evaluationStats',
      'failedTests',
      'gates',
      'judgeBudget',
      'requiredFailures',
      'run',
      'runId',
      'schemaVersion',
      'suites',
      'summary',
      'surface',
      'timeouts',
    ]);
    expect(feedback.judgeBudget).toBeNull();
    expect(feedback.schemaVersion).toBe(1);
    expect(feedback.runId).toBe(runId);
    expect(feedback.run).toMatchObject({ status: 'failed', resultsDb: '.m3/executions.sqlite' });
    expect(feedback.suites).toEqual([
      {
        attempts: { failed: 1, passed: 0, skipped: 0, todo: 0, total: 1 },
        name: 'shipping',
        suiteId: expect.any(Number),
      },
    ]);
    expect(feedback.attempts).toHaveLength(1);
    expect(feedback.attempts[0]).toMatchObject({ fullName: 'shipping local', outcome: 'failed', runId });
    expect(feedback.attempts[0].failureMessage).toBe('header was Bearer [REDACTED]');
    expect(feedback.evaluationStats['m3.expect.toHaveToolCall']).toMatchObject({ passRate: 1, passed: 1, expected: 1 });
    expect(feedback.evaluationStats['project.gate.v1']).toMatchObject({ passRate: 0, passed: 0, expected: 1 });
    expect(feedback.requiredFailures).toEqual([
      expect.objectContaining({ evaluator: 'project.gate.v1', status: 'failed', rationale: 'saw [REDACTED]' }),
    ]);
    expect(feedback.comparison).toMatchObject({
      baselineRunId: baselineId,
      currentRunId: runId,
      regressedTests: [expect.objectContaining({ fullName: 'shipping local', before: 'passed', after: 'failed' })],
    });
    expect(feedback.agentStats).toBeNull();
    expect(feedback.timeouts).toEqual([]);
    expect(feedback.summary.verdict).toBe('failed');
    expect(feedback.summary.jestExit).toEqual({ code: 1, signal: null });
    await store.close();
  });

  test('agentStats holds the pass rates per harness, model and case of agent executions', async () => {
    const store = new InMemoryExecutionStore();
    const redactor = new Redactor([]);
    const runId = await seedRun(
      store,
      [1, 2].map((trial) => ({
        suite: 'shipping',
        fullName: `shipping quotes [agent=acp:fixture] [trial ${trial}/2]`,
        outcome: 'passed' as const,
        caseId: 'shipping::quotes',
        agent: { harness: 'acp', model: 'fixture', trial },
        evaluations: [{ evaluator: 'm3.expect.toHaveToolCall', status: trial === 1 ? 'passed' : 'failed' }],
      })),
    );
    const { summary, attempts } = await buildRunSummary(store, { runId, redactor, resultsDb: 'db', cwd: root });
    const written = writeFeedback(root, buildFeedback(summary, attempts, redactor));
    const { agentStats } = JSON.parse(readFileSync(written, 'utf8'));
    expect(Object.keys(agentStats)).toEqual(['byCase', 'byHarness', 'byModel']);
    const expected = { evaluator: 'm3.expect.toHaveToolCall', passed: 1, expected: 2, passRate: 0.5 };
    expect(agentStats.byHarness).toEqual([expect.objectContaining({ ...expected, harness: 'acp', model: null })]);
    expect(agentStats.byModel).toEqual([expect.objectContaining({ ...expected, harness: 'acp', model: 'fixture' })]);
    expect(agentStats.byCase).toEqual([
      expect.objectContaining({ ...expected, caseId: 'shipping::quotes', casesAnyPassed: 1, casesAllPassed: 0 }),
    ]);
    await store.close();
  });

  test('timeouts lists every timed-out execution with its stage, operation and ms, redacted, same schema version', async () => {
    const store = new InMemoryExecutionStore();
    const redactor = new Redactor(['tok-secret-9876']);
    const runId = await seedRun(store, [
      {
        suite: 'shipping',
        fullName: 'shipping stalls with tok-secret-9876 [agent=acp:fixture]',
        outcome: 'failed',
        caseId: 'shipping::stalls',
        agent: { harness: 'acp', model: 'fixture', trial: 1 },
        timeout: {
          code: 'execution_timeout',
          stage: 'waiting_for_harness_response',
          operation: 'session/prompt',
          elapsedMs: 1002,
          timeoutMs: 1000,
        },
      },
    ]);
    const { summary, attempts } = await buildRunSummary(store, { runId, redactor, resultsDb: 'db', cwd: root });
    const text = readFileSync(writeFeedback(root, buildFeedback(summary, attempts, redactor)), 'utf8');
    expect(text).not.toContain('tok-secret-9876');
    const feedback = JSON.parse(text);
    expect(feedback.judgeBudget).toBeNull();
    expect(feedback.schemaVersion).toBe(1);
    expect(feedback.timeouts).toEqual([
      expect.objectContaining({
        kind: 'agent',
        testName: 'shipping stalls with [REDACTED] [agent=acp:fixture]',
        harness: 'acp',
        model: 'fixture',
        stage: 'waiting_for_harness_response',
        operation: 'session/prompt',
        elapsedMs: 1002,
        timeoutMs: 1000,
      }),
    ]);
    await store.close();
  });
});
