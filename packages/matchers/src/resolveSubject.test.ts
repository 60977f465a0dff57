import { resolveSubject, subjectIds } from '@sf-m3/core/internal';
import { closedClient, EXEC_ID, executionOf, openClient, trace, turnOf } from './matchers.testkit';

describe('resolveSubject', () => {
  const t = trace({
    calls: [
      { tool: 'a', turnId: 't1' },
      { tool: 'b', turnId: 't2' },
    ],
  });

  test('views, traces, results, closed clients and JSON views resolve to one finalized view', () => {
    for (const subject of [t.view(), t, executionOf(t), closedClient(t), t.view().toJSON()]) {
      const resolved = resolveSubject(subject);
      expect(resolved).toMatchObject({ status: 'resolved', executionId: EXEC_ID });
      if (resolved.status === 'resolved') expect(resolved.views).toHaveLength(1);
    }
  });

  test('a turn resolves to its own slice of the view', () => {
    const resolved = resolveSubject(turnOf(t, 't2'));
    expect(resolved).toMatchObject({ status: 'resolved', turnId: 't2' });
    if (resolved.status === 'resolved') {
      const tools = resolved.views[0]!.timeline.filter((e) => e.kind === 'tool_call');
      expect(tools).toHaveLength(1);
    }
  });

  test('an open client and an unfinalized trace are not finalized', () => {
    expect(resolveSubject(openClient())).toEqual({
      status: 'not_finalized',
      reason: 'TraceNotFinalized',
      executionId: EXEC_ID,
      turnId: null,
    });
    expect(resolveSubject(openClient().trace)).toMatchObject({ status: 'not_finalized', reason: 'TraceNotFinalized' });
    const { traceView: _v, ...turnWithoutView } = turnOf(t, 't1');
    expect(resolveSubject(turnWithoutView)).toMatchObject({ status: 'not_finalized', turnId: 't1' });
  });

  test('values with no trace are unsupported', () => {
    for (const subject of ['text', 42, null, { content: [] }, []]) {
      expect(resolveSubject(subject)).toEqual({ status: 'unsupported' });
    }
  });

  test('a getter that throws before close counts as not available yet', () => {
    const client = {
      executionId: EXEC_ID,
      get result(): never {
        throw new Error('not closed');
      },
      trace: openClient().trace,
    };
    expect(resolveSubject(client)).toMatchObject({ status: 'not_finalized' });
  });

  test('subjectIds reads tool results and turns too', () => {
    expect(subjectIds({ content: [], isError: false, executionId: 'exec-1', tool: 't', server: 's' })).toEqual({
      executionId: 'exec-1',
      turnId: null,
    });
    expect(subjectIds(turnOf(t, 't1'))).toEqual({ executionId: EXEC_ID, turnId: 't1' });
    expect(subjectIds('x')).toEqual({ executionId: null, turnId: null });
  });
});

describe('resolveSubject errors', () => {
  const fakeTrace = (error: unknown) => ({
    executionId: 'exec-1',
    events: [],
    finalized: true,
    view: () => {
      throw error;
    },
  });
  test('TraceUnavailable from view() is reported as such', () => {
    expect(resolveSubject(fakeTrace(Object.assign(new Error('bad'), { code: 'trace_unavailable' })))).toMatchObject({
      status: 'not_finalized',
      reason: 'TraceUnavailable',
    });
  });
  test('any other error from view() is a bug and propagates', () => {
    expect(() => resolveSubject(fakeTrace(new ReferenceError('x is not defined')))).toThrow(ReferenceError);
  });
});
