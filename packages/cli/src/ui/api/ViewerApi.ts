// The viewer's read-only API over an `ExecutionStore`: one method per view, each answering JSON.
// The HTTP server routes to it, and the static HTML report calls it to embed the same answers.
import type { ExecutionStore, RawEvidence, Redactor, RunSurfaceCoverage } from '@sf-m3/core';
import type { TrendBucket } from './apiPaths';
import { executionEvidence, executionPage, type ExecutionPage } from './executionPage';
import { executionsPage, type ExecutionsPage } from './executionsPage';
import { runPage, type RunPage, type RunPageContext } from './runPage';
import { runsPage, type RunsPage } from './runsPage';
import { surfacePage } from './surfacePage';
import { surfaceTrendsPage, type SurfaceTrendsPage } from './surfaceTrendsPage';
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
    return this.redacted(executionPage(this.store, executionId, this.context.cwd));
  }

  evidence(executionId: string, evidenceId: string): Promise<RawEvidence> {
    return this.redacted(executionEvidence(this.store, executionId, evidenceId));
  }

  /** What the run exercised of each server's tools, prompts and resources (contract §25). */
  surface(runId: string): Promise<RunSurfaceCoverage> {
    return this.redacted(surfacePage(this.store, runId));
  }

  /** Tools called and tools succeeded, per server, over the newest runs (contract §25). */
  surfaceTrends(): Promise<SurfaceTrendsPage> {
    return this.redacted(surfaceTrendsPage(this.store));
  }

  trends(group: string, bucket: TrendBucket): Promise<TrendsPage> {
    return this.redacted(trendsPage(this.store, group, bucket));
  }

  /** Values are stored redacted; this also blanks secrets of the viewer's own environment. */
  private async redacted<T>(answer: Promise<T>): Promise<T> {
    return this.context.redactor.redactJson(await answer);
  }
}
