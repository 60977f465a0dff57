import type { EvaluationStatus } from '../enums';
import type { JsonObject } from '../json';

/** Metric values an evaluator reports beside its verdict. */
export type EvaluationMetrics = Record<string, number | string | boolean | null>;

/** One saved verdict. Rows are append-only; readers take the latest per lineage. */
export interface EvaluationResult {
  readonly evaluationId: string;
  readonly evaluator: string;
  readonly status: EvaluationStatus;
  /** 0..1, or null when the evaluator gives no score. */
  readonly score: number | null;
  /** Bounded (2000 chars) and redacted. */
  readonly rationale: string | null;
  readonly metrics: EvaluationMetrics;
  readonly required: boolean;
  readonly executionId: string | null;
  readonly turnId: string | null;
  readonly caseId: string | null;
  /** sha256 of the redacted subject's canonical JSON; the subject itself is never stored. */
  readonly subjectDigest: string;
  readonly createdAt: string;
  /** Who decided: evaluator kind, judge model, endpoint host, rubric, latency, usage... never a key. */
  readonly provenance: JsonObject;
  /** Free-form labels (matcher name, negated, test path, matrix keys...). */
  readonly metadata: JsonObject;
}

/** The labels an evaluation row is filtered and grouped by in aggregation. */
export interface EvaluationLabels {
  readonly runId: string | null;
  readonly suiteName: string | null;
  readonly caseId: string | null;
  readonly server: string | null;
  readonly tool: string | null;
  readonly transport: string | null;
  readonly harness: string | null;
  readonly model: string | null;
  readonly trial: string | null;
  readonly judgeModel: string | null;
  readonly rubricId: string | null;
  readonly matrixId: string | null;
  /** `metadata.<key>` labels, stringified. */
  readonly metadata: Record<string, string>;
}
