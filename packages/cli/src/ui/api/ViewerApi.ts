// The viewer's read-only API over an `ExecutionStore`: one method per view, each answering JSON.
// The HTTP server routes to it, and the static HTML report calls it to embed the same answers.
import type { ExecutionStore, RawEvidence, Redactor } from '@sf-m3/core';
import type { TrendBucket } from './apiPaths';
import { executionEvidence, executionPage, type ExecutionPage } from './executionPage';
import { executionsPage, type ExecutionsPage } from './executionsPage';
import { runPage, type RunPage, type RunPageContext } from './runPage';
import { runsPage, type RunsPage } from './runsPage';
import { trendsPage, type TrendsPage } from './trendsPage';

/** Read-only answers for every view; the store should be opened read-only. */
export class ViewerApi {
  constructor(
    private readonly store: ExecutionStore,
    private readonly context: RunPageContext,
  ) {}

  /** The redactor every answer passes through (values are already redacted as stored). */
  get redactor(): Redactor {
    return this.context.redactor;
  }

  runs(): Promise<RunsPage> {
    return this.redacted(runsPage(this.store));
  }

  run(runId: string): Promise<RunPage> {
    return this.redacted(runPage(this.store, runId, this.context));
  }

  executions(runId: string, offset: number): Promise<ExecutionsPage> {
    return this.redacted(executionsPage(this.store, runId, offset));
  }

  execution(executionId: string): Promise<ExecutionPage> {
    return this.redacted(executionPage(this.store, executionId));
  }

  evidence(executionId: string, evidenceId: string): Promise<RawEvidence> {
    return this.redacted(executionEvidence(this.store, executionId, evidenceId));
  }

  trends(group: string, bucket: TrendBucket): Promise<TrendsPage> {
    return this.redacted(trendsPage(this.store, group, bucket));
  }

  /** Values are stored redacted; this also blanks secrets of the viewer's own environment. */
  private async redacted<T>(answer: Promise<T>): Promise<T> {
    return this.context.redactor.redactJson(await answer);
  }
}
