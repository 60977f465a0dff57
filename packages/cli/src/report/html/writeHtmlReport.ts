// `m3 report [RUN_ID] --html DIR`: the viewer's views of one run (with its trend history) as a
// static, self-contained folder (DIR/index.html) that opens from disk with no server or network.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ViewerApi } from '../../ui/api/ViewerApi';
import { readClientBundle } from '../../ui/server/viewerAssets';
import { collectReportData } from './collectReportData';
import { renderReportPage } from './renderReportPage';

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
  const responses = await collectReportData(api, runId);
  const data = { mode: 'static', runId, generatedAt: now().toISOString(), responses };
  const page = renderReportPage({ script, style, data: api.redactor.redactJson(data), title: `m3 report ${runId}` });
  mkdirSync(dir, { recursive: true });
  const indexPath = join(dir, 'index.html');
  writeFileSync(indexPath, page);
  return { indexPath, bytes: Buffer.byteLength(page) };
}
