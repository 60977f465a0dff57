import { ModelValidationError, TraceNotFinalized, TraceUnavailable } from '../errors';
import { kitOf, linkToKit } from '../ownership/kitLink';
import type { TraceEvent } from './Event';
import { TraceResult, type TraceResultData } from './TraceResult';
import { TraceView } from './TraceView';
import { buildDirectTrace, TraceEventListBuilder } from '@sf-m3/test-utils/trace';

function unfinished(): TraceResultData {
  const builder = new TraceEventListBuilder({ executionId: 'exec-00000000000000000000000000000001' });
  builder.add('transport.connected', { payload: { transport: 'stdio', instrumented: 'sdk-transport-wrapper' } });
  builder.add('mcp.request', { jsonrpcId: 1, direction: 'client_to_server', payload: { method: 'ping', params: {} } });
  return builder.data();
}

function withEvents(data: TraceResultData, events: TraceEvent[]): TraceResultData {
  return { ...data, events };
}

describe('TraceResult', () => {
  it('holds a finalized direct trace with events numbered 0..n-1', () => {
    const trace = buildDirectTrace({ calls: [{ tool: 'add', arguments: { a: 1, b: 2 } }] });
    expect(trace.events.map((e) => e.sequence)).toEqual(trace.events.map((_, i) => i));
    expect(trace.events[0]!.kind).toBe('execution.created');
    expect(trace.events.at(-1)!.kind).toBe('execution.finished');
    expect(trace.finalized).toBe(true);
    expect(trace.highestSequence).toBe(trace.events.length - 1);
    expect(trace.completeness).toBe('partial');
    expect(trace.limitations).toEqual(['capture_incomplete']);
  });

  it('is frozen, events included', () => {
    const trace = buildDirectTrace();
    expect(Object.isFrozen(trace)).toBe(true);
    expect(Object.isFrozen(trace.events)).toBe(true);
    expect(Object.isFrozen(trace.events[0]!.payload)).toBe(true);
    expect(() => {
      (trace as { traceId: string }).traceId = 'other';
    }).toThrow(TypeError);
  });

  it('does not freeze or share the caller’s event objects', () => {
    const data = unfinished();
    const trace = new TraceResult(data);
    expect(Object.isFrozen(data.events[1])).toBe(false);
    expect(trace.events[1]).toEqual(data.events[1]);
  });

  it('rejects a gap in the numbering', () => {
    const data = unfinished();
    const events = [data.events[0]!, { ...data.events[2]!, sequence: 2 }];
    expect(() => new TraceResult(withEvents(data, events))).toThrow(
      /without gaps or duplicates: expected 1, found 2 \(gap\)/,
    );
  });

  it('rejects a duplicate sequence', () => {
    const data = unfinished();
    const events = [data.events[0]!, data.events[1]!, { ...data.events[2]!, sequence: 1, eventId: 'x' }];
    expect(() => new TraceResult(withEvents(data, events))).toThrow(ModelValidationError);
    expect(() => new TraceResult(withEvents(data, events))).toThrow(/duplicate/);
  });

  it('rejects a repeated event id', () => {
    const data = unfinished();
    const events = [data.events[0]!, data.events[1]!, { ...data.events[2]!, eventId: data.events[1]!.eventId }];
    expect(() => new TraceResult(withEvents(data, events))).toThrow(/repeats eventId/);
  });

  it('rejects an event of another execution', () => {
    const data = unfinished();
    const events = [data.events[0]!, { ...data.events[1]!, executionId: 'exec-other' }, data.events[2]!];
    expect(() => new TraceResult(withEvents(data, events))).toThrow(/belongs to another execution/);
  });

  it('requires execution.created first and execution.finished last', () => {
    const data = unfinished();
    const swapped = [
      { ...data.events[1]!, sequence: 0 },
      { ...data.events[0]!, sequence: 1 },
    ];
    expect(() => new TraceResult(withEvents(data, swapped))).toThrow(/first trace event must be execution.created/);
    const trace = buildDirectTrace();
    const finishedEarly = trace.events.map((e, i) =>
      i === 1 ? { ...trace.events.at(-1)!, sequence: 1, eventId: 'f' } : e,
    );
    expect(() => new TraceResult(withEvents(trace.toJSON(), finishedEarly))).toThrow(/is not the last event/);
  });

  it('rejects unknown kinds, bad offsets and timestamps', () => {
    const data = unfinished();
    const bad = (patch: Partial<TraceEvent>) =>
      withEvents(data, [data.events[0]!, { ...data.events[1]!, ...patch } as TraceEvent, data.events[2]!]);
    expect(() => new TraceResult(bad({ kind: 'mcp.bogus' as never }))).toThrow(/unknown kind/);
    expect(() => new TraceResult(bad({ offsetMs: -1 }))).toThrow(/offsetMs/);
    expect(() => new TraceResult(bad({ offsetMs: Number.NaN }))).toThrow(/offsetMs/);
    expect(() => new TraceResult(bad({ timestamp: 'yesterday' }))).toThrow(/timestamp/);
  });

  it('enforces completeness against limitations', () => {
    const data = unfinished();
    expect(() => new TraceResult({ ...data, completeness: 'partial', limitations: [] })).toThrow(
      /partial trace must name at least one limitation/,
    );
    expect(() => new TraceResult({ ...data, completeness: 'complete' })).toThrow(/complete trace has no limitations/);
    expect(() => new TraceResult({ ...data, completeness: 'sort of' as never })).toThrow(/completeness/);
    expect(() => new TraceResult({ ...data, traceId: '' })).toThrow(/traceId/);
  });

  it('allows an empty trace (not finalized)', () => {
    const trace = new TraceResult({
      traceId: 't',
      executionId: 'e',
      completeness: 'partial',
      limitations: ['x'],
      events: [],
    });
    expect(trace.finalized).toBe(false);
    expect(trace.highestSequence).toBe(-1);
  });

  it('throws TraceNotFinalized from view() until execution.finished', () => {
    const trace = new TraceResult(unfinished());
    expect(trace.finalized).toBe(false);
    expect(() => trace.view()).toThrow(TraceNotFinalized);
    expect(() => trace.view()).toThrow(/execution has not been finalized/);
  });

  it('caches its view', () => {
    const trace = buildDirectTrace({ calls: [{ tool: 'add' }] });
    const view = trace.view();
    expect(view).toBeInstanceOf(TraceView);
    expect(trace.view()).toBe(view);
  });

  it('refuses to project a terminal event that contradicts the trace', () => {
    const trace = buildDirectTrace();
    const events = trace.events.map((e, i) =>
      i === trace.events.length - 1 ? { ...e, payload: { ...e.payload, outcome: 'great' } } : e,
    );
    expect(() => new TraceResult({ ...trace.toJSON(), events }).view()).toThrow(TraceUnavailable);
    const otherTrace = trace.events.map((e, i) =>
      i === 0 ? { ...e, payload: { ...e.payload, traceId: 'trace-x' } } : e,
    );
    expect(() => new TraceResult({ ...trace.toJSON(), events: otherTrace }).view()).toThrow(/another traceId/);
    const limits = trace.events.map((e, i) =>
      i === trace.events.length - 1 ? { ...e, payload: { ...e.payload, limitations: ['cleanup_failed'] } } : e,
    );
    expect(() => new TraceResult({ ...trace.toJSON(), events: limits }).view()).toThrow(/limitations/);
  });

  it('round-trips through JSON', () => {
    const trace = buildDirectTrace({
      calls: [
        { tool: 'add', arguments: { a: 1 } },
        { tool: 'fail', isError: true },
      ],
    });
    const json = JSON.parse(JSON.stringify(trace)) as TraceResultData;
    expect(json).toEqual(trace.toJSON());
    const back = TraceResult.fromJSON(json);
    expect(back.toJSON()).toEqual(trace.toJSON());
    expect(back.view().toJSON()).toEqual(trace.view().toJSON());
  });

  it('writes and checks its JSON schema version', () => {
    const trace = buildDirectTrace();
    expect(trace.toJSON().schemaVersion).toBe(1);
    const { schemaVersion: _omitted, ...legacy } = trace.toJSON();
    expect(TraceResult.fromJSON(legacy).toJSON()).toEqual(trace.toJSON());
    expect(() => TraceResult.fromJSON({ ...trace.toJSON(), schemaVersion: 2 as never })).toThrow(
      /unsupported trace schemaVersion 2/,
    );
  });

  it('fromJSON rejects non-objects with a clear message', () => {
    expect(() => TraceResult.fromJSON(null as never)).toThrow(/trace data must be an object/);
  });

  it('passes its kit link on to its view', () => {
    const trace = buildDirectTrace();
    const kit = { name: 'kit' };
    linkToKit(trace, kit);
    expect(kitOf(trace)).toBe(kit);
    expect(kitOf(trace.view())).toBe(kit);
    expect(kitOf(trace.view().forServer('example'))).toBe(kit);
  });

  it('links a view projected before the trace was linked', () => {
    const trace = buildDirectTrace();
    const view = trace.view();
    const kit = { name: 'late kit' };
    linkToKit(trace, kit);
    expect(trace.view()).toBe(view);
    expect(kitOf(view)).toBe(kit);
  });
});
