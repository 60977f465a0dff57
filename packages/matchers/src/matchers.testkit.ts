/**
 * Helpers for the matcher tests: fixed-id traces from the core trace builder, kit-made subject
 * shapes (closed and open clients, execution results, turns), a fake kit, and failure messages
 * without colours for snapshots. Excluded from the build.
 */
import { buildExecutionResult } from '../../core/src/execution/buildExecutionResult';
import type { ExecutionResult, TurnResult } from '../../core/src/execution/ExecutionResult';
import { linkToKit } from '../../core/src/ownership/kitLink';
import { Redactor } from '../../core/src/redaction/Redactor';
import { buildDirectTrace, TraceEventListBuilder } from '@sf-m3/test-utils/trace';
import type { DirectTraceSpec } from '@sf-m3/test-utils/trace';
import { TraceResult } from '../../core/src/trace/TraceResult';
import type { TraceViewData } from '../../core/src/trace/TraceEntry';
import type { MatcherCheck } from './findKit';
import { stripAnsi } from './formatValue';

/** The execution id every fixture trace uses, so snapshots are stable. */
export const EXEC_ID = `exec-${'a'.repeat(32)}`;
/** The trace id every fixture trace uses. */
export const TRACE_ID = `trace-${'b'.repeat(32)}`;

/** A finalized direct trace with fixed ids. */
export function trace(spec: DirectTraceSpec = {}): TraceResult {
  return buildDirectTrace({ executionId: EXEC_ID, traceId: TRACE_ID, ...spec });
}

/** The weather fixture: two calls on `weather`, one tool error on `docs`. */
export function weatherTrace(): TraceResult {
  return trace({
    server: 'weather',
    calls: [
      {
        tool: 'get_weather',
        arguments: { city: 'Oslo', days: 3, units: ['C', 'mm'] },
        result: { content: [{ type: 'text', text: 'sunny' }], structuredContent: { temp: 3.2 } },
        latencyMs: 40,
      },
      { tool: 'get_weather', arguments: { city: 'Bergen', days: 1, units: ['C'] }, latencyMs: 200 },
      { tool: 'search', server: 'docs', arguments: { q: 'rain' }, isError: true, latencyMs: 5 },
    ],
  });
}

/** An execution result over `t`, optionally linked to a kit. */
export function executionOf(t: TraceResult, extra: { kit?: object; error?: ExecutionResult['error'] } = {}) {
  return buildExecutionResult({
    trace: t,
    outcome: t.view().outcome,
    createdAt: '2026-01-01T00:00:00.000Z',
    finishedAt: '2026-01-01T00:00:01.500Z',
    runId: null,
    suiteName: null,
    caseId: null,
    ...(extra.error ? { error: extra.error } : {}),
    ...(extra.kit ? { kit: extra.kit } : {}),
  });
}

/** A closed client: `result` is the execution result. */
export function closedClient(t: TraceResult) {
  return { executionId: t.executionId, result: executionOf(t), finalTrace: t, trace: t };
}

/** An open client: no result yet, a live partial trace, and the initialization it already knows. */
export function openClient() {
  const builder = new TraceEventListBuilder({ executionId: EXEC_ID, traceId: TRACE_ID });
  builder.add('transport.connected', { server: 'example', payload: { transport: 'stdio', instrumented: 'x' } });
  const live = new TraceResult(builder.data());
  return {
    executionId: EXEC_ID,
    get result(): ExecutionResult | undefined {
      return undefined;
    },
    get trace(): TraceResult {
      return live;
    },
    initialization: { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: {}, instructions: null },
  };
}

/** A turn of an agent session over the weather trace, with the given turn id on its calls. */
export function turnOf(view: TraceResult, turnId: string, text = 'It is sunny in Oslo.'): TurnResult {
  return {
    turnId,
    executionId: view.executionId,
    index: 0,
    prompt: 'Weather in Oslo?',
    outcome: 'completed',
    response: { text, content: [{ type: 'text', text }] },
    stopReason: 'end_turn',
    traceView: view.view(),
  };
}

/** The view's JSON with every tool call rewritten by `edit` (plain data works as a subject). */
export function editedView(
  t: TraceResult,
  edit: (entry: Record<string, unknown>, index: number) => void,
): TraceViewData {
  const data = JSON.parse(JSON.stringify(t.view())) as TraceViewData;
  let index = 0;
  for (const entry of data.timeline) if (entry.kind === 'tool_call') edit(entry as never, index++);
  return data;
}

/** A fake kit exposing the recording seam (`recordChecks`, `recordCheck`) and a redactor. */
export function fakeKit(options: { recordChecks?: boolean; secrets?: string[]; reject?: boolean } = {}) {
  const checks: MatcherCheck[] = [];
  const kit = {
    recordChecks: options.recordChecks ?? true,
    redactor: new Redactor(options.secrets ?? []),
    checks,
    recordCheck(check: MatcherCheck): Promise<unknown> {
      checks.push(check);
      return options.reject ? Promise.reject(new Error('store down')) : Promise.resolve(null);
    },
  };
  return kit;
}

/** Links `target` to `kit` as the real kit does. */
export const linked = <T extends object>(target: T, kit: object): T => linkToKit(target, kit);

/** The colourless message of the assertion error `run` throws (fails the test if it does not throw). */
export function failureOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    return stripAnsi((error as Error).message);
  }
  throw new Error('expected the assertion to fail, but it passed');
}

/** The colourless message of the assertion error `run` rejects with. */
export async function asyncFailureOf(run: () => Promise<unknown>): Promise<string> {
  try {
    await run();
  } catch (error) {
    return stripAnsi((error as Error).message);
  }
  throw new Error('expected the assertion to fail, but it passed');
}
