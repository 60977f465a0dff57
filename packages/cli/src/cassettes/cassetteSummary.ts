// The `cassettes` line of the run summary (contract §24): how the run's agent and judge executions
// were served (counted by their `metadata.cassette` label, which the stores save), and the obsolete
// cassette entries the Jest workers reported at each file's end, listed the way Jest lists obsolete
// snapshots.
import type { ExecutionRecord } from '@sf-m3/core';
import type { CassetteFileReport } from '@sf-m3/core/internal';

export type { CassetteFileReport };

/** One test file with obsolete cassette entries. */
export interface ObsoleteCassetteFile {
  testPath: string;
  obsolete: number;
  /** Full names of the obsolete tests, sorted. */
  tests: string[];
}

/** The run's cassette figures. */
export interface CassetteSummary {
  /** Executions served wholly from cassettes. */
  replayed: number;
  /** Executions recorded live. */
  recorded: number;
  /** Executions partly replayed, partly recorded. */
  mixed: number;
  /** Obsolete entries over every file that reported (0 when the CLI did not see the reports). */
  obsolete: number;
  /** True when the obsolete entries were removed (`--update-cassettes`), false when they are still there. */
  obsoleteRemoved: boolean;
  /** Files with obsolete entries, by path. */
  obsoleteFiles: ObsoleteCassetteFile[];
}

/** Counts the executions by `labels.metadata.cassette` and sums the files' obsolete entries; null when all are 0. */
export function collectCassetteSummary(
  executions: readonly Pick<ExecutionRecord, 'labels'>[],
  reports: readonly CassetteFileReport[],
): CassetteSummary | null {
  const summary: CassetteSummary = {
    replayed: 0,
    recorded: 0,
    mixed: 0,
    obsolete: 0,
    obsoleteRemoved: false,
    obsoleteFiles: [],
  };
  for (const execution of executions) {
    const use = execution.labels.metadata?.cassette;
    if (use === 'replayed' || use === 'recorded' || use === 'mixed') summary[use] += 1;
  }
  const files = new Map<string, ObsoleteCassetteFile>();
  for (const report of reports) {
    if (report.obsolete <= 0) continue;
    summary.obsolete += report.obsolete;
    if (report.removed === true) summary.obsoleteRemoved = true;
    const file = files.get(report.testPath) ?? { testPath: report.testPath, obsolete: 0, tests: [] };
    file.obsolete += report.obsolete;
    file.tests = [...new Set([...file.tests, ...report.obsoleteTests])].sort();
    files.set(report.testPath, file);
  }
  summary.obsoleteFiles = [...files.values()].sort((a, b) => a.testPath.localeCompare(b.testPath));
  const any = summary.replayed + summary.recorded + summary.mixed + summary.obsolete > 0;
  return any ? summary : null;
}

/** Obsolete test names printed per file before the rest are left to `--json`. */
export const MAX_PRINTED_OBSOLETE_TESTS = 20;

/**
 * `cassettes  12 replayed, 2 recorded, 1 obsolete` (`mixed` only when there are some), then the
 * files with obsolete entries and their tests, with the command that removes them.
 */
export function formatCassetteLines(summary: CassetteSummary): string[] {
  const parts = [`${summary.replayed} replayed`, `${summary.recorded} recorded`];
  if (summary.mixed > 0) parts.push(`${summary.mixed} mixed`);
  parts.push(`${summary.obsolete} obsolete${summary.obsoleteRemoved ? ' removed' : ''}`);
  const lines = [`cassettes  ${parts.join(', ')}`];
  if (summary.obsolete === 0) return lines;
  const entries = summary.obsolete === 1 ? 'entry' : 'entries';
  const files = summary.obsoleteFiles.length === 1 ? '1 file' : `${summary.obsoleteFiles.length} files`;
  lines.push(
    summary.obsoleteRemoved
      ? `  ${summary.obsolete} obsolete cassette ${entries} removed from ${files}`
      : `  ${summary.obsolete} obsolete cassette ${entries} in ${files}; to remove ${summary.obsolete === 1 ? 'it' : 'them'}, run \`npx m3 test --update-cassettes\``,
  );
  for (const file of summary.obsoleteFiles) {
    lines.push(`    ↳ ${file.testPath}`);
    const shown = file.tests.slice(0, MAX_PRINTED_OBSOLETE_TESTS);
    for (const test of shown) lines.push(`        • ${test}`);
    if (file.tests.length > shown.length) lines.push(`        … ${file.tests.length - shown.length} more (--json)`);
  }
  return lines;
}
