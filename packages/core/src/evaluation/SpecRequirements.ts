import type { ExecutionStore } from '../store/ExecutionStore';

/**
 * The evaluators an execution's spec requires (`ExecutionRecord.requiredEvaluators`), read from the
 * store once per execution. That list is fixed when the record is created (`createExecution`
 * refuses a second record for an id and `finishExecution` keeps it), so the cached set cannot go
 * stale. An execution the store does not know (yet) is not remembered: it is asked again next time.
 */
export class SpecRequirements {
  private readonly byExecution = new Map<string, Promise<ReadonlySet<string> | null>>();

  constructor(private readonly store: ExecutionStore) {}

  /** True when the spec of `executionId` declared `evaluator` required. */
  async requires(executionId: string, evaluator: string): Promise<boolean> {
    const required = await this.requiredOf(executionId);
    return required !== null && required.has(evaluator);
  }

  private requiredOf(executionId: string): Promise<ReadonlySet<string> | null> {
    const cached = this.byExecution.get(executionId);
    if (cached !== undefined) return cached;
    const reading = this.store.getExecution(executionId).then(
      (record): ReadonlySet<string> => new Set(record.requiredEvaluators),
      () => null, // an execution the store does not know has no spec-level requirements (for now)
    );
    this.byExecution.set(executionId, reading);
    void reading.then((required) => {
      if (required === null && this.byExecution.get(executionId) === reading) this.byExecution.delete(executionId);
    });
    return reading;
  }
}
