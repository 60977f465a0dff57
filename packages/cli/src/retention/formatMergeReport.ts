// The text `m3 merge` prints: which files went into OUT and the rows each table gained.
import type { MergeReport } from '@sf-m3/store-sqlite';
import { displayPath } from '../displayPath';

/** A summary of a merge; paths shown relative to `cwd` when inside it. */
export function formatMergeReport(report: MergeReport, cwd: string): string {
  const { added } = report;
  const lines = [
    `m3 merge  ${displayPath(cwd, report.out)}  <-  ${report.inputs.map((p) => displayPath(cwd, p)).join(', ')}`,
    `added     ${added.runs} runs, ${added.attempts} attempts, ${added.executions} executions, ` +
      `${added.evaluations} evaluations, ${added.blobs} evidence blobs, ${added.suites} suites`,
    `runs      ${report.runIds.length === 0 ? 'none' : report.runIds.join(', ')}`,
  ];
  if (Object.values(added).every((count) => count === 0)) {
    lines.push('nothing new: every row was already in the output (merging is idempotent)');
  }
  return `${lines.join('\n')}\n`;
}
