import { ModelValidationError } from '../errors';
import type { TraceViewData } from './TraceEntry';
import { TraceView } from './TraceView';
import { buildDirectTrace, TraceEventListBuilder } from '@sf-m3/test-utils/trace';

function twoServerTrace() {
  return buildDirectTrace({
    server: 'math',
    calls: [
      { tool: 'add', arguments: { a: 1, b: 2 }, turnId: 'turn-1', latencyMs: 10 },
      { tool: 'lookup', server: 'catalog', arguments: { id: 'x' }, turnId: 'turn-2' },
      { tool: 'add', arguments: { a: 2, b: 2 }, isError: true, turnId: 'turn-2' },
    ],
  });
}

describe('TraceView', () => {
  const trace = twoServerTrace();
  const view = trace.view();

  it('exposes the contract §5 fields', () => {
    expect(view).toMatchObject({
      schema: 'm3.trace_view',
      schemaVersion: 1,
      traceId: trace.traceId,
      executionId: trace.executionId,
      outcome: 'completed',
      completeness: 'partial',
      limitations: ['capture_incomplete'],
    });
    expect(view.runtime.kind).toBe('direct');
    expect(view.summary.toolCallCount).toBe(3);
    expect(view.timeline.length).toBeGreaterThan(10);
  });

  it('indexes the timeline by entry kind', () => {
    expect(view.toolCalls.map((c) => c.tool.value)).toEqual(['add', 'lookup', 'add']);
    expect(view.protocol.every((e) => e.kind === 'protocol')).toBe(true);
    expect(view.protocol).toHaveLength(4); // initialize + notifications/initialized per server
    expect(view.transports).toHaveLength(4);
    expect(view.processes).toHaveLength(2);
    expect(view.initializations).toHaveLength(2);
    expect(view.lifecycle).toHaveLength(2);
    expect(view.messages).toEqual([]);
    expect(view.reasoning).toEqual([]);
    expect(view.interactions).toEqual([]);
    expect(view.rawMessages).toEqual([]);
    expect(view.diagnostics).toEqual([]);
    expect(view.usage).toEqual([]);
    expect(view.evaluations).toEqual([]);
    expect(view.toolCalls).toBe(view.toolCalls);
  });

  it('is immutable', () => {
    expect(Object.isFrozen(view)).toBe(true);
    expect(Object.isFrozen(view.timeline)).toBe(true);
    expect(Object.isFrozen(view.toolCalls[0]!.arguments)).toBe(true);
    expect(() => (view.timeline as unknown[]).push({})).toThrow(TypeError);
    expect(() => {
      (view.summary as { toolCallCount: number }).toolCallCount = 0;
    }).toThrow(TypeError);
  });

  it('forServer keeps one server’s entries and the whole summary', () => {
    const catalog = view.forServer('catalog');
    expect(catalog).toBeInstanceOf(TraceView);
    expect(catalog.toolCalls.map((c) => c.tool.value)).toEqual(['lookup']);
    expect(catalog.timeline.every((e) => e.server === 'catalog')).toBe(true);
    expect(catalog.summary).toEqual(view.summary);
    expect(catalog.runtime).toEqual(view.runtime);
    expect(view.forServer('nowhere').timeline).toEqual([]);
  });

  it('forTurn accepts an id or a TurnResult-like object', () => {
    expect(view.forTurn('turn-2').toolCalls.map((c) => c.tool.value)).toEqual(['lookup', 'add']);
    expect(view.forTurn({ turnId: 'turn-1' }).toolCalls.map((c) => c.arguments.value)).toEqual([{ a: 1, b: 2 }]);
    expect(() => view.forTurn('')).toThrow(ModelValidationError);
    expect(() => view.forTurn({} as never)).toThrow(/forTurn needs a turn id/);
  });

  it('forSession keeps one session’s entries', () => {
    const builder = new TraceEventListBuilder({ runtime: 'acp' });
    builder.add('session.created', { sessionId: 's1', payload: { sessionId: 's1' } });
    builder.add('agent.message', {
      sessionId: 's1',
      payload: { role: 'user', content: [{ type: 'text', text: 'a' }] },
    });
    builder.add('agent.message', {
      sessionId: 's2',
      payload: { role: 'user', content: [{ type: 'text', text: 'b' }] },
    });
    const agentView = builder.finish().view();
    expect(agentView.forSession('s1').messages.map((m) => m.text)).toEqual(['a']);
    expect(agentView.forSession('s1').lifecycle.map((l) => l.event)).toEqual(['session.created']);
    expect(agentView.forSession('s2').summary.messageCount).toBe(2);
    expect(() => agentView.forSession('')).toThrow(ModelValidationError);
  });

  it('between keeps entries overlapping the offset window', () => {
    const [first] = view.toolCalls;
    const window = view.between(first!.startMs + 1, first!.startMs + 2);
    expect(window.toolCalls).toEqual([first]);
    expect(window.timeline.every((e) => e.endMs >= first!.startMs + 1 && e.startMs <= first!.startMs + 2)).toBe(true);
    expect(view.between(0, 1e9).timeline).toEqual(view.timeline);
    expect(() => view.between(-1, 5)).toThrow(/0 <= startMs <= endMs/);
    expect(() => view.between(5, 4)).toThrow(ModelValidationError);
    expect(() => view.between(0, Number.NaN)).toThrow(ModelValidationError);
  });

  it('filters compose', () => {
    expect(
      view
        .forServer('math')
        .forTurn('turn-2')
        .toolCalls.map((c) => c.status),
    ).toEqual(['tool_error']);
  });

  it('round-trips through JSON unchanged', () => {
    const json = JSON.parse(JSON.stringify(view)) as TraceViewData;
    expect(json).toEqual(view.toJSON());
    const back = TraceView.fromData(json);
    expect(back).toEqual(view);
    expect(back.toJSON()).toEqual(view.toJSON());
    expect(JSON.stringify(back)).toBe(JSON.stringify(view));
    const filtered = view.forTurn('turn-2');
    expect(TraceView.fromData(JSON.parse(JSON.stringify(filtered)) as TraceViewData)).toEqual(filtered);
  });

  it('fromData does not share or freeze the caller’s object', () => {
    const json = JSON.parse(JSON.stringify(view)) as TraceViewData;
    TraceView.fromData(json);
    expect(Object.isFrozen(json)).toBe(false);
  });

  describe('fromData validation', () => {
    const json = () => JSON.parse(JSON.stringify(view)) as Record<string, unknown> & TraceViewData;
    const mutable = (data: TraceViewData) =>
      data as unknown as { timeline: Record<string, unknown>[] } & Record<string, unknown>;

    it('rejects a wrong schema or version', () => {
      expect(() => TraceView.fromData({ ...json(), schema: 'x' } as never)).toThrow(/schema must be 'm3.trace_view'/);
      expect(() => TraceView.fromData({ ...json(), schemaVersion: 9 } as never)).toThrow(/unsupported schemaVersion 9/);
      expect(() => TraceView.fromData(null as never)).toThrow(ModelValidationError);
    });

    it('rejects an observation that breaks the state/reason rules', () => {
      const data = mutable(json());
      const call = data.timeline.find((e) => e.kind === 'tool_call')!;
      call.tool = { state: 'not_emitted', value: 'add', reason: 'provider_did_not_emit' };
      expect(() => TraceView.fromData(data as never)).toThrow(
        /timeline\[\d+\]\.tool: observation state not_emitted must not carry a value/,
      );
      call.tool = { state: 'observed', value: 'add', reason: 'provider_hidden' };
      expect(() => TraceView.fromData(data as never)).toThrow(/an observed value carries no reason/);
      call.tool = { state: 'unavailable', value: null, reason: 'provider_hidden' };
      expect(() => TraceView.fromData(data as never)).toThrow(/does not allow reason provider_hidden/);
    });

    it('checks observations nested in a wire call', () => {
      const data = mutable(json());
      const call = data.timeline.find((e) => e.kind === 'tool_call')! as { wire: { value: { result: unknown } } };
      call.wire.value.result = { state: 'bogus', value: null };
      expect(() => TraceView.fromData(data as never)).toThrow(/wire\.value\.result: unknown observation state/);
    });

    it("checks reported arguments as an observation, never a wire call's raw arguments", () => {
      const data = mutable(json());
      const call = data.timeline.find((e) => e.kind === 'tool_call')! as {
        wire: { value: { arguments: unknown } };
        reported: unknown;
      };
      call.wire.value.arguments = { state: 'CA', value: 1 }; // a tool argument named `state`
      call.reported = {
        state: 'observed',
        value: {
          providerCallId: 'p1',
          server: 's',
          tool: 'add',
          arguments: { state: 'not_emitted', value: { a: 1 }, reason: 'provider_did_not_emit' },
          result: { state: 'not_emitted', value: null, reason: 'provider_did_not_emit' },
          status: { state: 'not_emitted', value: null, reason: 'provider_did_not_emit' },
        },
      };
      expect(() => TraceView.fromData(data as never)).toThrow(/reported\.value\.arguments: .*must not carry a value/);
    });

    it('rejects unknown entry kinds and bad runtime observations', () => {
      const data = mutable(json());
      data.timeline[0]!.kind = 'workspace';
      expect(() => TraceView.fromData(data as never)).toThrow(/unknown kind workspace/);
      const other = mutable(json());
      (other.runtime as Record<string, unknown>).transport = {
        state: 'redacted',
        value: null,
        reason: 'capture_failed',
      };
      expect(() => TraceView.fromData(other as never)).toThrow(/runtime\.transport/);
    });
  });
});
