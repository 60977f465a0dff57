import type { EvaluationContext, EvaluationDecision, EvaluatorCallback } from './EvaluatorCallback';

type Obj = Record<string, unknown>;

function asObject(value: unknown): Obj | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Obj) : null;
}

/** `m3.execution.completed.v1`: passes when the subject's execution outcome is `completed`. */
export const executionCompleted: EvaluatorCallback = (ctx) => {
  const subject = asObject(ctx.subject);
  const snapshot = asObject(subject?.snapshot);
  const outcome = snapshot?.outcome ?? subject?.outcome ?? ctx.trace?.outcome;
  if (typeof outcome !== 'string') {
    return {
      status: 'inconclusive',
      score: null,
      rationale: 'the subject has no execution outcome: pass an ExecutionResult (or a finished trace)',
    };
  }
  const passed = outcome === 'completed';
  return {
    status: passed ? 'passed' : 'failed',
    score: passed ? 1 : 0,
    rationale: `execution outcome is ${outcome}`,
    metrics: { outcome },
  };
};

interface CallSummary {
  readonly tool: string;
  readonly status: string;
}

/** Tool-call entries from a live view (`toolCalls`) or its JSON form (`timeline`). */
function traceToolCalls(trace: unknown): CallSummary[] | null {
  const view = asObject(trace);
  if (!view) return null;
  const entries = Array.isArray(view.toolCalls)
    ? (view.toolCalls as unknown[])
    : Array.isArray(view.timeline)
      ? (view.timeline as unknown[]).filter((e) => asObject(e)?.kind === 'tool_call')
      : null;
  if (!entries) return null;
  return entries.map((e) => {
    const entry = asObject(e) ?? {};
    const tool = asObject(entry.tool);
    return {
      tool: typeof tool?.value === 'string' ? tool.value : '(unknown tool)',
      status: typeof entry.toolStatus === 'string' ? entry.toolStatus : 'incomplete',
    };
  });
}

function fromToolResult(result: Obj, source: string): EvaluationDecision {
  const failed = result.isError === true;
  const tool = typeof result.tool === 'string' ? ` ${result.tool}` : '';
  return {
    status: failed ? 'failed' : 'passed',
    score: failed ? 0 : 1,
    rationale: `${source}: tool result${tool} has isError=${String(result.isError)}`,
    metrics: { source: 'tool_result', isError: failed },
  };
}

/**
 * `m3.tool_call.succeeded.v1`: a `ToolCallResult` (or an execution whose direct result is one) with
 * `isError: false`, or else every tool call in the trace succeeded. The rationale says which was used.
 */
export const toolCallSucceeded: EvaluatorCallback = (ctx: EvaluationContext) => {
  const subject = asObject(ctx.subject);
  if (subject && typeof subject.isError === 'boolean') return fromToolResult(subject, 'judged from the ToolCallResult');
  const direct = asObject(subject?.directResult);
  if (direct && typeof direct.isError === 'boolean') {
    return fromToolResult(direct, "judged from the execution's direct result");
  }
  const calls = traceToolCalls(ctx.trace) ?? traceToolCalls(subject?.traceView) ?? traceToolCalls(subject);
  if (calls === null) {
    return {
      status: 'not_run',
      score: null,
      rationale: 'no tool result and no trace to check: pass a ToolCallResult, an ExecutionResult or a trace',
    };
  }
  if (calls.length === 0) {
    return {
      status: 'not_run',
      score: null,
      rationale: 'judged from the trace: it has no tool calls',
      metrics: { toolCallCount: 0 },
    };
  }
  const failures = calls.filter((c) => c.status !== 'success');
  const metrics = { source: 'trace', toolCallCount: calls.length, failedToolCallCount: failures.length };
  if (failures.length === 0) {
    return {
      status: 'passed',
      score: 1,
      rationale: `judged from the trace: all ${calls.length} tool call(s) succeeded`,
      metrics,
    };
  }
  const listed = failures
    .slice(0, 10)
    .map((c) => `${c.tool} (${c.status})`)
    .join(', ');
  return {
    status: 'failed',
    score: (calls.length - failures.length) / calls.length,
    rationale: `judged from the trace: ${failures.length} of ${calls.length} tool call(s) did not succeed: ${listed}`,
    metrics,
  };
};

function blockTexts(content: unknown): string[] {
  if (!Array.isArray(content)) return [];
  return content
    .map((b) => asObject(b))
    .filter((b): b is Obj => b !== null && b.type === 'text' && typeof b.text === 'string')
    .map((b) => b.text as string);
}

/** Every text an output-like subject offers: string, `.text`, response text, content blocks, turns. */
function textCandidates(subject: unknown): string[] {
  if (typeof subject === 'string') return [subject];
  const obj = asObject(subject);
  if (!obj) return [];
  const out: string[] = [];
  const collect = (value: unknown): void => {
    const o = asObject(value);
    if (!o) return;
    if (typeof o.text === 'string') out.push(o.text);
    const response = asObject(o.response);
    if (response && typeof response.text === 'string') out.push(response.text);
    out.push(...blockTexts(o.content));
    if (response) out.push(...blockTexts(response.content));
  };
  collect(obj);
  collect(obj.directResult);
  if (Array.isArray(obj.turns)) obj.turns.forEach(collect);
  return out;
}

/** `m3.output.has_text.v1`: passes when a tool result, turn response or string has non-blank text. */
export const outputHasText: EvaluatorCallback = (ctx) => {
  const candidates = textCandidates(ctx.subject);
  if (candidates.length === 0) {
    return {
      status: 'not_run',
      score: null,
      rationale: 'the subject has no text to check: pass a tool result, a turn, an execution or a string',
    };
  }
  const nonBlank = candidates.filter((t) => t.trim().length > 0);
  const passed = nonBlank.length > 0;
  return {
    status: passed ? 'passed' : 'failed',
    score: passed ? 1 : 0,
    rationale: passed
      ? `found ${nonBlank.length} non-empty text part(s)`
      : `all ${candidates.length} text part(s) are empty`,
    metrics: { textPartCount: candidates.length, nonEmptyTextPartCount: nonBlank.length },
  };
};

/** The built-in evaluators every engine registers; their names are reserved. */
export const BUILTIN_EVALUATORS: Readonly<Record<string, EvaluatorCallback>> = Object.freeze({
  'm3.execution.completed.v1': executionCompleted,
  'm3.tool_call.succeeded.v1': toolCallSucceeded,
  'm3.output.has_text.v1': outputHasText,
});
