// `m3 report [RUN_ID] --html DIR`: the viewer's views of one run (with its trend history) as a
// static, self-contained folder (DIR/index.html) that opens from disk with no server or network,
// within `REPORT_MAX_BYTES`: the failed tests' executions whole, the rest summarized or left to `m3 ui`.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ViewerApi } from '../../ui/api/ViewerApi';
import { readClientBundle } from '../../ui/server/viewerAssets';
import { collectBudgetedReport } from './collectReportData';
import { renderReportPage } from './renderReportPage';

/** The most a static report may weigh, page and bundle included (issue 27: ≤ 1 MB for 100 tests). */
export const REPORT_MAX_BYTES = 1_000_000;

/** The page around the bundle and the data (markup, CSP, the data block's wrapper), with room to spare. */
const PAGE_OVERHEAD_BYTES = 8 * 1024;

/** What was written. */
export interface WrittenHtmlReport {
  indexPath: string;
  bytes: number;
}

/** Writes DIR/index.html for `runId`; creates DIR. */
export async function writeHtmlReport(
  api: ViewerApi,
  runId: string,
  dir: string,
  now: () => Date = () => new Date(),
): Promise<WrittenHtmlReport> {
  const { script, style } = readClientBundle();
  const budget = REPORT_MAX_BYTES - Buffer.byteLength(script) - Buffer.byteLength(style) - PAGE_OVERHEAD_BYTES;
  const report = await collectBudgetedReport(api, runId, budget);
  const data = {
    mode: 'static',
    runId,
    generatedAt: now().toISOString(),
    maxBytes: REPORT_MAX_BYTES,
    summarizedExecutions: report.summarizedExecutions,
    omitted: report.omitted,
    responses: report.responses,
  };
  const page = renderReportPage({ script, style, data: api.redactor.redactJson(data), title: `m3 report ${runId}` });
  mkdirSync(dir, { recursive: true });
  const indexPath = join(dir, 'index.html');
  writeFileSync(indexPath, page);
  return { indexPath, bytes: Buffer.byteLength(page) };
}
