import type { ExecutionStore } from '../store/ExecutionStore';
import type { ExecutionRecord } from '../store/records';

/**
 * The labels of an execution (`ExecutionRecord.labels`), read from the store once per execution;
 * the kit gives `labelsOf` to its `EvaluationEngine` as `executionLabels`. Labels are fixed when
 * the record is created (`createExecution` refuses a second record for an id and
 * `finishExecution` keeps them), so a cached value cannot go stale. An execution the store does
 * not know (yet) is not remembered: it is asked again next time (as `SpecRequirements` does).
 */
export class ExecutionLabelCache {
  private readonly byExecution = new Map<string, Promise<ExecutionRecord['labels'] | null>>();

  constructor(private readonly store: ExecutionStore) {}

  /** The execution's labels, or null when the store does not know the execution. */
  labelsOf(executionId: string): Promise<ExecutionRecord['labels'] | null> {
    const cached = this.byExecution.get(executionId);
    if (cached !== undefined) return cached;
    const reading = this.store.getExecution(executionId).then(
      (record) => record.labels,
      () => null, // unknown (or unreadable) execution: evaluations fall back to the kit's labels
    );
    this.byExecution.set(executionId, reading);
    void reading.then((labels) => {
      if (labels === null && this.byExecution.get(executionId) === reading) this.byExecution.delete(executionId);
    });
    return reading;
  }
}
