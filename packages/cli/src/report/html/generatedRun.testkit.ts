// A generated run the size of a real suite, to measure the static report: `tests` tests (a few
// failing), each with a direct execution whose trace has several tool calls with kilobyte-sized
// results and raw evidence, 17 evaluators of `m3.expect.*` rows with call sites, and earlier runs
// of the same suite so the trends have a history. Deterministic for a given seed.
import type { ExecutionStore } from '@sf-m3/core';
import { newId } from '@sf-m3/core/internal';
import { Redactor } from '../../../../core/src/redaction/Redactor';
import { TraceRecorder } from '../../../../core/src/trace/TraceRecorder';
import { prng } from '@sf-m3/test-utils/store';
import { attemptRecord, executionRecord, storedEvaluation } from '@sf-m3/test-utils/store';

/** What the generator wrote. */
export interface GeneratedRun {
  runId: string;
  failedTests: string[];
  executionIds: string[];
}

/** The shape of the generated suite. */
export interface GeneratedRunSpec {
  tests: number;
  failing: number;
  /** Earlier runs (evaluations only) before the measured one. */
  history: number;
  toolCallsPerTest: number;
  /** Bytes of text in each tool result. */
  resultBytes: number;
  evaluators: number;
  seed: number;
}

/** 100 tests, 4 failing, 17 evaluators, 5 earlier runs, 6 tool calls of 3 KB each per test. */
export const HUNDRED_TEST_RUN: GeneratedRunSpec = {
  tests: 100,
  failing: 4,
  history: 5,
  toolCallsPerTest: 6,
  resultBytes: 3000,
  evaluators: 17,
  seed: 27,
};

const SUITE = 'git server';
const TEST_FILE = '/project/tests/git.test.ts';

function traceOf(executionId: string, spec: GeneratedRunSpec, random: () => number, failed: boolean) {
  const recorder = new TraceRecorder({ executionId, redactor: new Redactor([]) });
  recorder.record('execution.created', {
    phase: 'preflight',
    payload: { traceId: newId('trace'), runtime: 'direct', runId: null, suiteName: SUITE, caseId: null, servers: [] },
  });
  for (let call = 1; call <= spec.toolCallsPerTest; call += 1) {
    const args = { repo_path: '/tmp/repo', max_count: Math.floor(random() * 50) };
    const text = Array.from({ length: Math.ceil(spec.resultBytes / 50) }, (_, i) =>
      `commit ${(random() * 1e16).toString(16).padStart(14, '0')} line ${i}`.padEnd(49, '.'),
    ).join('\n');
    const result = { content: [{ type: 'text', text }], isError: failed && call === spec.toolCallsPerTest };
    const request = { method: 'tools/call', params: { name: `git_log_${call % 3}`, arguments: args } };
    recorder.record('mcp.request', {
      direction: 'client_to_server',
      server: 'git',
      jsonrpcId: call,
      phase: 'mcp_call',
      payload: request,
      raw: JSON.stringify({ jsonrpc: '2.0', id: call, ...request }),
    });
    recorder.record('mcp.response', {
      direction: 'server_to_client',
      server: 'git',
      jsonrpcId: call,
      phase: 'mcp_call',
      payload: { result },
      raw: JSON.stringify({ jsonrpc: '2.0', id: call, result }),
    });
  }
  return recorder;
}

async function saveRun(store: ExecutionStore, runId: string, day: number, passed: number, failed: number) {
  await store.saveRun({
    runId,
    label: null,
    startedAt: new Date(Date.UTC(2026, 2, day, 10)).toISOString(),
    finishedAt: new Date(Date.UTC(2026, 2, day, 10, 5)).toISOString(),
    status: failed > 0 ? 'failed' : 'passed',
    argv: ['m3', 'test'],
    counts: { passed, failed, skipped: 0, todo: 0 },
  });
}

/** Writes the history and the measured run into `store`; returns the measured run. */
export async function seedGeneratedRun(store: ExecutionStore, spec: GeneratedRunSpec): Promise<GeneratedRun> {
  const random = prng(spec.seed);
  const evaluators = Array.from({ length: spec.evaluators }, (_, i) => `m3.expect.matcher${i + 1}`);
  let runId = '';
  const failedTests: string[] = [];
  const executionIds: string[] = [];
  for (let r = 0; r <= spec.history; r += 1) {
    const measured = r === spec.history;
    runId = `run-${String(r).padStart(2, '0')}-${'0'.repeat(24)}`;
    const failing = measured ? spec.failing : Math.floor(random() * 3);
    await saveRun(store, runId, 1 + r, spec.tests - failing, failing);
    for (let t = 0; t < spec.tests; t += 1) {
      const failed = t < failing;
      const fullName = `${SUITE} answers question ${String(t).padStart(3, '0')} about the repository history`;
      const caseId = `${SUITE}::${fullName}`;
      const attempt = attemptRecord({
        runId,
        testPath: TEST_FILE,
        fullName,
        caseId,
        outcome: failed ? 'failed' : 'passed',
        failureMessage: failed ? `expect(received).toHaveToolCall(expected)\n\nExpected git_status to be called` : null,
      });
      const execution = executionRecord({
        runId,
        suiteName: SUITE,
        caseId,
        attemptId: attempt.attemptId,
        createdAt: new Date(Date.UTC(2026, 2, 1 + r, 10, 0, t)).toISOString(),
        labels: { server: 'git', metadata: {} } as never,
      });
      await store.saveAttempt({ ...attempt, executionIds: [execution.executionId] });
      await store.createExecution(execution);
      if (measured) {
        const recorder = traceOf(execution.executionId, spec, random, failed);
        const outcome = failed ? 'failed' : 'completed';
        const trace = recorder.finish(outcome);
        await store.finishExecution({
          executionId: execution.executionId,
          outcome,
          finishedAt: execution.createdAt,
          snapshot: { lifecycle: 'finished', outcome },
          trace,
          evidence: [...recorder.evidence],
          sessions: [],
          turns: [],
        });
        executionIds.push(execution.executionId);
        if (failed) failedTests.push(fullName);
      }
      for (const [i, evaluator] of evaluators.entries()) {
        const status = failed && i === 0 ? 'failed' : random() < 0.01 ? 'failed' : 'passed';
        await store.saveEvaluation(
          storedEvaluation(
            {
              evaluator,
              status,
              rationale: status === 'passed' ? 'ok' : 'expected git_status to be called; 6 other calls happened',
              metadata: {
                matcher: evaluator.slice('m3.expect.'.length),
                testPath: TEST_FILE,
                line: 20 + i,
                negated: false,
              },
            },
            { runId, suiteName: SUITE },
            execution,
          ),
        );
      }
    }
  }
  return { runId, failedTests, executionIds };
}
