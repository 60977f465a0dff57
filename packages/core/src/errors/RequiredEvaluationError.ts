import type { EvaluationResult } from '../evaluation/EvaluationResult';
import { M3Error } from './M3Error';

/** A required evaluation did not pass; it was saved before this was thrown. */
export class RequiredEvaluationError extends M3Error {
  /** The saved evaluation that did not pass. */
  readonly result: EvaluationResult;

  constructor(result: EvaluationResult) {
    super(
      'required_evaluation_failed',
      `required evaluation ${result.evaluator} ${result.status}: ${result.rationale ?? 'no rationale'}`,
      { evaluator: result.evaluator, status: result.status, evaluationId: result.evaluationId },
    );
    this.result = result;
  }
}
