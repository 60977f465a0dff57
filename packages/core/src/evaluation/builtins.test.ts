import type { ExecutionResult, ToolCallResult } from '../execution/ExecutionResult';
import { Redactor } from '../redaction/Redactor';
import { InMemoryExecutionStore } from '../store/InMemoryExecutionStore';
import { buildDirectTrace, type DirectCallSpec } from '@sf-m3/test-utils/trace';
import { EvaluationEngine } from './EvaluationEngine';

function engine(): EvaluationEngine {
  return new EvaluationEngine({
    store: new InMemoryExecutionStore(),
    redactor: new Redactor(),
    runId: null,
    suiteName: null,
    caseId: null,
    executionLabels: async () => null,
  });
}

function executionResult(
  calls: DirectCallSpec[],
  outcome: 'completed' | 'failed' = 'completed',
  directResult?: unknown,
): ExecutionResult {
  const trace = buildDirectTrace({ calls, outcome });
  const view = trace.view();
  return {
    executionId: trace.executionId,
    snapshot: {
      lifecycle: 'finished',
      outcome,
      createdAt: '2026-01-01T00:00:00.000Z',
      finishedAt: '2026-01-01T00:00:01.000Z',
      runId: null,
      suiteName: null,
      caseId: null,
    },
    turns: [],
    trace,
    traceView: view,
    ...(directResult !== undefined ? { directResult } : {}),
    evaluations: [],
  };
}

const toolResult = (isError: boolean, text = 'ok'): ToolCallResult => ({
  content: [{ type: 'text', text }],
  isError,
  executionId: 'exec-' + 'e'.repeat(32),
  tool: 'normalize',
  server: 'catalog',
});

describe('m3.execution.completed.v1', () => {
  it('passes a completed execution, fails another outcome, and is inconclusive without one', async () => {
    const e = engine();
    const completed = await e.evaluate(executionResult([]), 'm3.execution.completed.v1');
    expect([completed.status, completed.rationale]).toEqual(['passed', 'execution outcome is completed']);
    const failed = await e.evaluate(executionResult([], 'failed'), 'm3.execution.completed.v1');
    expect([failed.status, failed.rationale]).toEqual(['failed', 'execution outcome is failed']);
    expect((await e.evaluate({ answer: 1 }, 'm3.execution.completed.v1')).status).toBe('inconclusive');
  });
});

describe('m3.tool_call.succeeded.v1', () => {
  it('judges a ToolCallResult by isError and says so', async () => {
    const e = engine();
    const ok = await e.evaluate(toolResult(false), 'm3.tool_call.succeeded.v1');
    expect(ok).toMatchObject({ status: 'passed', score: 1, metrics: { source: 'tool_result', isError: false } });
    expect(ok.rationale).toBe('judged from the ToolCallResult: tool result normalize has isError=false');
    const bad = await e.evaluate(toolResult(true), 'm3.tool_call.succeeded.v1');
    expect([bad.status, bad.rationale]).toEqual([
      'failed',
      'judged from the ToolCallResult: tool result normalize has isError=true',
    ]);
  });

  it('judges an execution by its direct result, else by every tool call in its trace', async () => {
    const e = engine();
    const direct = await e.evaluate(
      executionResult([{ tool: 'a' }], 'completed', toolResult(true)),
      'm3.tool_call.succeeded.v1',
    );
    expect(direct.status).toBe('failed');
    expect(direct.rationale).toContain("judged from the execution's direct result");
    const allGood = await e.evaluate(executionResult([{ tool: 'a' }, { tool: 'b' }]), 'm3.tool_call.succeeded.v1');
    expect([allGood.status, allGood.rationale]).toEqual([
      'passed',
      'judged from the trace: all 2 tool call(s) succeeded',
    ]);
    const mixed = await e.evaluate(
      executionResult([
        { tool: 'a' },
        { tool: 'b', isError: true },
        { tool: 'c', error: { code: -32602, message: 'bad' } },
      ]),
      'm3.tool_call.succeeded.v1',
    );
    expect(mixed).toMatchObject({ status: 'failed', metrics: { toolCallCount: 3, failedToolCallCount: 2 } });
    expect(mixed.rationale).toBe(
      'judged from the trace: 2 of 3 tool call(s) did not succeed: b (tool_error), c (protocol_error)',
    );
    expect(mixed.score).toBeCloseTo(1 / 3);
    const none = await e.evaluate(executionResult([]), 'm3.tool_call.succeeded.v1');
    expect([none.status, none.rationale]).toEqual(['not_run', 'judged from the trace: it has no tool calls']);
    expect((await e.evaluate('just text', 'm3.tool_call.succeeded.v1')).status).toBe('not_run');
  });

  it('uses a trace given as an option', async () => {
    const trace = buildDirectTrace({ calls: [{ tool: 'a', isError: true }] });
    const result = await engine().evaluate({ note: 'x' }, 'm3.tool_call.succeeded.v1', { trace });
    expect(result.status).toBe('failed');
  });
});

describe('m3.output.has_text.v1', () => {
  it.each([
    ['a non-empty string', 'hello', 'passed'],
    ['a blank string', '   ', 'failed'],
    ['a tool result with text', toolResult(false, 'Ada'), 'passed'],
    ['a tool result with empty text', toolResult(false, ''), 'failed'],
    ['a turn with a response', { turnId: 'turn-' + 'f'.repeat(32), response: { text: 'five', content: [] } }, 'passed'],
    ['a tool result without text blocks', { content: [{ type: 'image', data: 'x' }], isError: false }, 'not_run'],
    ['a number', 5, 'not_run'],
  ])('%s → %s', async (_label, subject, status) => {
    expect((await engine().evaluate(subject, 'm3.output.has_text.v1')).status).toBe(status);
  });

  it('reads the direct result and the turns of an execution', async () => {
    const e = engine();
    const withDirect = executionResult([{ tool: 'a' }], 'completed', toolResult(false, 'ADA'));
    expect((await e.evaluate(withDirect, 'm3.output.has_text.v1')).status).toBe('passed');
  });
});
