import { ProtocolError } from '../errors';
import { kitOf } from '../ownership/kitLink';
import { Redactor } from '../redaction/Redactor';
import { buildDirectTrace } from '@sf-m3/test-utils/trace';
import { buildExecutionResult, toErrorInfo } from './buildExecutionResult';

describe('buildExecutionResult', () => {
  test('a finished snapshot, a lazily projected view, live evaluations and kit links', () => {
    const trace = buildDirectTrace({ calls: [{ tool: 'echo', arguments: { text: 'a' } }] });
    const kit = {};
    let evaluations = 0;
    const result = buildExecutionResult({
      trace,
      outcome: 'completed',
      createdAt: '2026-01-01T00:00:00.000Z',
      finishedAt: '2026-01-01T00:00:01.000Z',
      runId: 'run-x',
      suiteName: 'suite',
      caseId: 'case',
      directResult: { isError: false },
      evaluations: () => {
        evaluations += 1;
        return [];
      },
      kit,
    });
    expect(result.snapshot).toEqual({
      lifecycle: 'finished',
      outcome: 'completed',
      createdAt: '2026-01-01T00:00:00.000Z',
      finishedAt: '2026-01-01T00:00:01.000Z',
      runId: 'run-x',
      suiteName: 'suite',
      caseId: 'case',
    });
    expect(result.executionId).toBe(trace.executionId);
    expect(result.turns).toEqual([]);
    expect(result.directResult).toEqual({ isError: false });
    expect(result.traceView).toBe(trace.view());
    expect(result.traceView.toolCalls).toHaveLength(1);
    expect(kitOf(result)).toBe(kit);
    expect(kitOf(result.trace)).toBe(kit);
    expect(kitOf(result.traceView)).toBe(kit);
    void result.evaluations;
    void result.evaluations;
    expect(evaluations).toBe(2);
    expect(Object.isFrozen(result)).toBe(true);
    expect('error' in result).toBe(false);
  });

  test('toErrorInfo keeps code and details and redacts secrets', () => {
    const redactor = new Redactor(['hunter2-secret']);
    const info = toErrorInfo(new ProtocolError('failed with hunter2-secret', { token: 'abc', code: 7 }), redactor);
    expect(info.code).toBe('protocol_error');
    expect(info.message).toBe('failed with [REDACTED]');
    expect(info.details).toEqual({ token: '[REDACTED]', code: 7 });
    const plain = toErrorInfo(new TypeError('boom hunter2-secret'), redactor);
    expect(plain).toEqual({
      code: 'internal_error',
      message: 'boom [REDACTED]',
      details: { exceptionType: 'TypeError' },
    });
  });
});
