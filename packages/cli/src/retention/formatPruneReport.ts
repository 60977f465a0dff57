// The text `m3 prune` prints: what went (or would go), what stayed running, and the space reclaimed.
import type { PruneReport } from '@sf-m3/core';
import { formatBytes } from './formatBytes';

const skippedNote = (report: PruneReport): string => ((report.skippedRunIds ?? []).length > 0 ? 'finished ' : '');

const plural = (count: number, word: string): string => `${count} ${word}${count === 1 ? '' : 's'}`;

/** Lines for a prune of the database shown as `resultsDb`, selected as `selection` describes. */
export function formatPruneReport(report: PruneReport, resultsDb: string, selection: string): string {
  const lines = [`m3 prune  ${resultsDb}  (${selection})`];
  const verb = report.dryRun ? 'would prune' : 'pruned';
  if (report.runIds.length === 0) {
    lines.push(`nothing to prune: no ${skippedNote(report)}run matches`);
  } else {
    lines.push(
      `${verb} ${plural(report.runIds.length, 'run')}, ${plural(report.executionCount, 'execution')}, ` +
        `${plural(report.evaluationCount, 'evaluation')}:`,
    );
    for (const runId of report.runIds) lines.push(`  ${runId}`);
  }
  const skipped = report.skippedRunIds ?? [];
  if (skipped.length > 0) {
    lines.push(
      `kept ${plural(skipped.length, 'running run')} (pass --include-running to prune ${skipped.length === 1 ? 'it' : 'them'}): ${skipped.join(', ')}`,
    );
  }
  if (report.bytesBefore !== undefined && report.bytesAfter !== undefined) {
    lines.push(
      report.dryRun
        ? `database  ${formatBytes(report.bytesBefore)} (dry run: nothing was changed)`
        : `database  ${formatBytes(report.bytesBefore)} -> ${formatBytes(report.bytesAfter)} ` +
            `(${formatBytes(Math.max(0, report.bytesBefore - report.bytesAfter))} reclaimed)`,
    );
  } else if (report.dryRun) {
    lines.push('dry run: nothing was changed');
  }
  return `${lines.join('\n')}\n`;
}
