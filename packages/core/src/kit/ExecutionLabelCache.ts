import type { ExecutionStore } from '../store/ExecutionStore';
import type { ExecutionRecord } from '../store/records';

/**
 * The labels of an execution (`ExecutionRecord.labels`), read from the store once per execution;
 * the kit gives `labelsOf` to its `EvaluationEngine` as `executionLabels`. Labels are fixed once
 * the execution finished (`finishExecution` adds the snapshot's metadata, e.g. `cassette`, to them:
 * contract §24), so only a finished execution's labels are remembered; an unfinished execution, or
 * one the store does not know (yet), is asked again next time (as `SpecRequirements` does).
 */
export class ExecutionLabelCache {
  private readonly byExecution = new Map<string, Promise<ExecutionRecord['labels'] | null>>();

  constructor(private readonly store: ExecutionStore) {}

  /** The execution's labels, or null when the store does not know the execution. */
  labelsOf(executionId: string): Promise<ExecutionRecord['labels'] | null> {
    const cached = this.byExecution.get(executionId);
    if (cached !== undefined) return cached;
    const reading = this.store.getExecution(executionId).then(
      (record) => ({ labels: record.labels, final: record.finishedAt !== null }),
      () => ({ labels: null, final: false }), // unknown (or unreadable): evaluations fall back to the kit's labels
    );
    const labels = reading.then((read) => read.labels);
    this.byExecution.set(executionId, labels);
    void reading.then((read) => {
      if (!read.final && this.byExecution.get(executionId) === labels) this.byExecution.delete(executionId);
    });
    return labels;
  }
}
