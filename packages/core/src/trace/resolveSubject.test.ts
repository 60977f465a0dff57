// The one definition of a trace view (contract §7), pinned for both readers of subjects: the
// matchers (`resolveSubject`) and the evaluation engine (`resolveTraceView`) see the same views.
import { resolveTraceView } from '../evaluation/resolveSubject';
import { InMemoryExecutionStore } from '../store/InMemoryExecutionStore';
import { isViewLike, resolveSubject } from './resolveSubject';
import { buildDirectTrace } from '@sf-m3/test-utils/trace';
import { TraceView } from './TraceView';

const EXEC_ID = `exec-${'c'.repeat(32)}`;
const trace = buildDirectTrace({ executionId: EXEC_ID, calls: [{ tool: 'a' }, { tool: 'b' }] });
const view = trace.view();

/** What the engine sees of `subject`, with a store that knows no execution. */
const engineView = (subject: unknown) => resolveTraceView(new InMemoryExecutionStore(), subject, undefined, null);

describe('a trace view', () => {
  test('is an object with a string executionId, a timeline array and a summary object', () => {
    expect(isViewLike(view)).toBe(true);
    expect(isViewLike(view.toJSON())).toBe(true);
    // A view of another copy of @sf-m3/core: the same data, another prototype.
    expect(isViewLike({ ...view.toJSON() })).toBe(true);
    expect(isViewLike({ toolCalls: [] })).toBe(false);
    expect(isViewLike({ timeline: [], summary: {} })).toBe(false);
    expect(isViewLike({ executionId: EXEC_ID, timeline: [] })).toBe(false);
  });

  test.each([
    ['a TraceView', view],
    ['its JSON form', view.toJSON()],
    ['a TraceResult', trace],
  ])('%s resolves to the same view for the matchers and for the evaluation engine', async (_name, subject) => {
    const resolved = resolveSubject(subject);
    expect(resolved).toMatchObject({ status: 'resolved', executionId: EXEC_ID });
    const seen = await engineView(subject);
    expect(seen).toBeInstanceOf(TraceView);
    expect(seen!.toJSON()).toEqual(view.toJSON());
  });

  test('an object that only has tool calls is no view for either', async () => {
    const subject = { toolCalls: view.toolCalls };
    expect(resolveSubject(subject).status).toBe('unsupported');
    await expect(engineView(subject)).resolves.toBeUndefined();
  });
});
