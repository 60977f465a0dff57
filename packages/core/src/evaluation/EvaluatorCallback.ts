import type { CassetteScope } from '../cassettes/CassetteScope';
import type { EvaluationStatus } from '../enums';
import type { JsonObject } from '../json';
import type { TraceView } from '../trace/TraceView';
import type { EvaluationMetrics } from './EvaluationResult';

/** What an evaluator callback is given. Everything in it is already redacted. */
export interface EvaluationContext {
  /** The redacted JSON form of the subject passed to `evaluate`. */
  readonly subject: unknown;
  /** The evaluator name being run. */
  readonly evaluator: string;
  readonly executionId: string | null;
  readonly turnId: string | null;
  readonly caseId: string | null;
  /** The execution's finalized trace view, when one was given or the store has it. */
  readonly trace?: TraceView;
  /** The `metadata` option, redacted. */
  readonly metadata: JsonObject;
}

/** A full verdict returned by an evaluator. */
export interface EvaluationDecision {
  readonly status: EvaluationStatus;
  /** 0..1, or null/omitted for no score. */
  readonly score?: number | null;
  /** Redacted and bounded to 2000 characters before it is stored. */
  readonly rationale?: string | null;
  readonly metrics?: EvaluationMetrics;
  /** Extra provenance merged over the engine's (`kind`, `evaluator`). */
  readonly provenance?: JsonObject;
}

/** What a callback may return: a decision, a bare status, or a boolean (true → passed). */
export type EvaluatorVerdict = EvaluationDecision | EvaluationStatus | boolean;

/** A deterministic evaluator; may be async. A throw or malformed return is saved as `error`. */
export type EvaluatorCallback = (context: EvaluationContext) => EvaluatorVerdict | Promise<EvaluatorVerdict>;

/** Options of `evaluate(subject, name, options)`. */
export interface EvaluateOptions {
  /** Defaults to the subject's own `executionId`, when it has one. */
  readonly executionId?: string | null;
  /** Defaults to the subject's `turnId` (a `TurnResult`). */
  readonly turnId?: string | null;
  /** Defaults to the execution's case, then the kit's. */
  readonly caseId?: string | null;
  /** A `TraceView` or `TraceResult` to hand to the callback; else the store's view of the execution. */
  readonly trace?: unknown;
  /** Makes this subject lineage required (sticky): a non-pass throws `RequiredEvaluationError`. */
  readonly required?: boolean;
  /** Stored with the row and exposed as `metadata.<key>` aggregation labels. */
  readonly metadata?: JsonObject;
  /** For a judge evaluator: the cassettes its request goes through (`kit.cassettes`, contract §24). */
  readonly cassette?: CassetteScope | null;
}
