import type { ExecutionOutcome } from '../enums';
import type { EvaluationResult } from '../evaluation/EvaluationResult';
import { M3Error } from '../errors';
import type { JsonObject } from '../json';
import { linkToKit } from '../ownership/kitLink';
import { toJsonValue, type Redactor } from '../redaction/Redactor';
import type { TraceResult } from '../trace/TraceResult';
import type { TraceView } from '../trace/TraceView';
import type { ErrorInfo, ExecutionResult, ExecutionSnapshot, TurnResult } from './ExecutionResult';

/** What an execution hands over when it finishes. */
export interface ExecutionResultInput {
  readonly trace: TraceResult;
  readonly outcome: ExecutionOutcome;
  readonly createdAt: string;
  readonly finishedAt: string;
  readonly runId: string | null;
  readonly suiteName: string | null;
  readonly caseId: string | null;
  readonly turns?: TurnResult[];
  readonly directResult?: unknown;
  readonly error?: ErrorInfo;
  /** `snapshot.metadata`: facts about how the execution ran (e.g. `cassette`, contract §24). */
  readonly metadata?: Readonly<Record<string, string>>;
  /** Live evaluations of the execution (read each time `evaluations` is read). */
  readonly evaluations?: () => EvaluationResult[];
  /** The kit to link the result, its trace and its view to. */
  readonly kit?: object;
}

const MAX_ERROR_MESSAGE = 4096;

/** Safe, redacted facts about an error, for `ExecutionResult.error` and `execution.finished`. */
export function toErrorInfo(error: unknown, redactor: Redactor): ErrorInfo {
  if (error instanceof M3Error) {
    return {
      code: error.code,
      message: redactor.redactText(error.message).slice(0, MAX_ERROR_MESSAGE),
      details: redactor.redactJson(toJsonValue(error.details)) as JsonObject,
    };
  }
  const message = error instanceof Error ? error.message : String(error);
  return {
    code: 'internal_error',
    message: redactor.redactText(message).slice(0, MAX_ERROR_MESSAGE),
    details: { exceptionType: error instanceof Error ? error.constructor.name : typeof error },
  };
}

/**
 * Builds the `ExecutionResult` of a finished execution. `traceView` is projected on first read
 * (then cached by the trace) and `evaluations` is read live, so evaluations saved after the
 * execution finished still show up. The result, trace and view are linked to the kit.
 */
export function buildExecutionResult(input: ExecutionResultInput): ExecutionResult {
  const snapshot: ExecutionSnapshot = Object.freeze({
    lifecycle: 'finished',
    outcome: input.outcome,
    createdAt: input.createdAt,
    finishedAt: input.finishedAt,
    runId: input.runId,
    suiteName: input.suiteName,
    caseId: input.caseId,
    ...(input.metadata !== undefined && { metadata: Object.freeze({ ...input.metadata }) }),
  });
  const kit = input.kit;
  if (kit !== undefined) linkToKit(input.trace, kit);
  const turns = input.turns ?? [];
  const evaluations = input.evaluations ?? (() => []);
  const result = {
    executionId: input.trace.executionId,
    snapshot,
    turns,
    trace: input.trace,
    get traceView(): TraceView {
      const view = input.trace.view();
      if (kit !== undefined) linkToKit(view, kit);
      return view;
    },
    ...(input.directResult !== undefined && { directResult: input.directResult }),
    get evaluations(): EvaluationResult[] {
      return evaluations();
    },
    ...(input.error !== undefined && { error: input.error }),
  };
  if (kit !== undefined) linkToKit(result, kit);
  return Object.freeze(result);
}
