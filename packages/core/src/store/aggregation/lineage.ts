import type { EvaluationResult } from '../../evaluation/EvaluationResult';

/** The identity re-evaluations share: `(execution, turn, evaluator, subject digest)`. */
export type EvaluationLineage = Pick<EvaluationResult, 'executionId' | 'turnId' | 'evaluator' | 'subjectDigest'>;

/** A string key for a lineage (missing execution or turn ids become empty strings). */
export function lineageKey(lineage: EvaluationLineage): string {
  return JSON.stringify([lineage.executionId ?? '', lineage.turnId ?? '', lineage.evaluator, lineage.subjectDigest]);
}

/**
 * True when row `a` supersedes row `b` of the same lineage: the later `createdAt` wins, and on a
 * tie the larger `evaluationId` (both stores use this exact order).
 */
export function isLaterRow(
  a: Pick<EvaluationResult, 'createdAt' | 'evaluationId'>,
  b: Pick<EvaluationResult, 'createdAt' | 'evaluationId'>,
): boolean {
  if (a.createdAt !== b.createdAt) return a.createdAt > b.createdAt;
  return a.evaluationId > b.evaluationId;
}
