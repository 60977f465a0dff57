import type { ExecutionOutcome } from '../enums';
import type { ErrorInfo, TurnResult } from '../execution/ExecutionResult';
import { linkToKit } from '../ownership/kitLink';
import type { Redactor } from '../redaction/Redactor';
import type { ContentBlock } from '../trace/TraceEntry';
import type { TraceView } from '../trace/TraceView';

/** What a `TurnResult` is built from. */
export interface TurnFacts {
  readonly turnId: string;
  readonly executionId: string;
  readonly index: number;
  readonly prompt: string;
  readonly outcome: ExecutionOutcome;
  readonly text: string | null;
  readonly stopReason: string | null;
  readonly error: ErrorInfo | undefined;
}

/**
 * A frozen `TurnResult` linked to the kit. Its text is redacted the way the trace's is (a key the
 * model echoes must not reach test output); `traceView` is the execution's once it has finished.
 */
export function agentTurnResult(
  t: TurnFacts,
  redactor: Redactor,
  kit: object,
  view: () => TraceView | undefined,
): TurnResult {
  const text = t.text !== null ? redactor.redactText(t.text) : null;
  const response = text !== null ? { text, content: [{ type: 'text', text }] as ContentBlock[] } : null;
  return linkToKit(
    Object.freeze({
      turnId: t.turnId,
      executionId: t.executionId,
      index: t.index,
      prompt: t.prompt,
      outcome: t.outcome,
      response,
      stopReason: t.stopReason,
      ...(t.error !== undefined && { error: t.error }),
      get traceView(): TraceView | undefined {
        return view();
      },
    }),
    kit,
  );
}
