import { ModelValidationError, OperationTimeout } from '../errors';
import { buildDirectTrace } from '@sf-m3/test-utils/trace';
import type { TraceEvent } from '../trace/Event';
import { buildExecutionResult } from './buildExecutionResult';
import { ExecutionHandle, type ExecutionEventFeed } from './ExecutionHandle';
import type { ExecutionResult } from './ExecutionResult';

/** A feed driven by the test: `emit` records an event, as a recorder would. */
class ManualFeed implements ExecutionEventFeed {
  readonly events: TraceEvent[] = [];
  private readonly listeners = new Set<(e: TraceEvent) => void>();
  stops = 0;

  follow(listener: (e: TraceEvent) => void): { past: readonly TraceEvent[]; stop: () => void } {
    this.listeners.add(listener);
    return {
      past: [...this.events],
      stop: () => {
        this.stops += 1;
        this.listeners.delete(listener);
      },
    };
  }

  emit(event: TraceEvent): void {
    this.events.push(event);
    for (const listener of this.listeners) listener(event);
  }
}

function setup(): {
  feed: ManualFeed;
  handle: ExecutionHandle;
  source: TraceEvent[];
  finish: (r: ExecutionResult) => void;
  cancels: number[];
} {
  const trace = buildDirectTrace({ calls: [{ tool: 'echo', arguments: { text: 'hi' } }] });
  const feed = new ManualFeed();
  let finish: (r: ExecutionResult) => void = () => undefined;
  const done = new Promise<ExecutionResult>((resolve) => {
    finish = resolve;
  });
  const cancels: number[] = [];
  const handle = new ExecutionHandle({
    executionId: trace.executionId,
    feed,
    done,
    cancel: async () => {
      cancels.push(Date.now());
    },
  });
  return { feed, handle, source: [...trace.events], finish, cancels };
}

describe('ExecutionHandle', () => {
  test('events() replays what was committed, then follows live events until execution.finished', async () => {
    const { feed, handle, source } = setup();
    for (const event of source.slice(0, 3)) feed.emit(event);
    const seen: number[] = [];
    const reading = (async () => {
      for await (const event of handle.events()) seen.push(event.sequence);
    })();
    await new Promise((r) => setTimeout(r, 10));
    for (const event of source.slice(3)) {
      feed.emit(event);
      await new Promise((r) => setImmediate(r));
    }
    await reading;
    expect(seen).toEqual(source.map((e) => e.sequence));
    expect(feed.stops).toBe(1);
  });

  test('afterSequence skips committed events; a duplicate delivery is not yielded twice', async () => {
    const { feed, handle, source } = setup();
    for (const event of source.slice(0, 4)) feed.emit(event);
    const iterator = handle.events({ afterSequence: 1 })[Symbol.asyncIterator]();
    expect((await iterator.next()).value.sequence).toBe(2);
    feed.emit(source[3]!);
    expect((await iterator.next()).value.sequence).toBe(3);
    for (const event of source.slice(4)) feed.emit(event);
    const rest: number[] = [];
    for (let r = await iterator.next(); !r.done; r = await iterator.next()) rest.push(r.value.sequence);
    expect(rest).toEqual(source.slice(4).map((e) => e.sequence));
    expect(() => handle.events({ afterSequence: -2 })).toThrow(ModelValidationError);
  });

  test('events() after the last sequence of a finished execution ends instead of waiting forever', async () => {
    const { feed, handle, source } = setup();
    for (const event of source) feed.emit(event);
    const last = source.at(-1)!.sequence;
    for (const afterSequence of [last, last + 10]) {
      const seen: number[] = [];
      for await (const event of handle.events({ afterSequence })) seen.push(event.sequence);
      expect(seen).toEqual([]);
    }
    expect(feed.stops).toBe(2);
  });

  test('breaking out of events() unsubscribes', async () => {
    const { feed, handle, source } = setup();
    for (const event of source) feed.emit(event);
    for await (const event of handle.events()) {
      if (event.sequence === 1) break;
    }
    expect(feed.stops).toBe(1);
  });

  test('result({ timeoutMs }) is wait-only; cancel() is idempotent and waits for the end', async () => {
    const { handle, source, finish, cancels } = setup();
    const error = (await handle.result({ timeoutMs: 20 }).catch((e: unknown) => e)) as OperationTimeout;
    expect(error).toBeInstanceOf(OperationTimeout);
    expect(error.details).toMatchObject({ waitOnly: true, timeoutMs: 20 });
    expect(handle.finished).toBe(false);
    expect(() => handle.result({ timeoutMs: -5 })).toThrow(ModelValidationError);

    const trace = buildDirectTrace({ calls: [] });
    const result = buildExecutionResult({
      trace,
      outcome: 'cancelled',
      createdAt: source[0]!.timestamp,
      finishedAt: source.at(-1)!.timestamp,
      runId: null,
      suiteName: null,
      caseId: null,
    });
    const cancelling = Promise.all([handle.cancel(), handle.cancel()]);
    finish(result);
    await cancelling;
    expect(cancels).toHaveLength(1);
    expect(await handle.result({ timeoutMs: 100 })).toBe(result);
    expect(handle.finished).toBe(true);
  });
});
