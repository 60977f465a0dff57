import * as fs from 'node:fs';
import * as path from 'node:path';
import { RUN_STATE_ROOT_ENV } from '../runContext';
import type { CassetteFileReport } from '../RunStateDir';

/** The file the `m3` CLI reads the run's cassette reports from, under its `M3_RUN_STATE_ROOT` (its `CASSETTE_REPORTS_FILE`). */
export const CASSETTE_REPORTS_FILE = 'cassette-reports.json';

/**
 * Global teardown's last word on cassettes (contract §24). Under `m3 test`, the workers' reports go
 * to the CLI's run-state folder, which outlives Jest until the CLI has printed its summary. Under a
 * plain `jest`, obsolete entries are told on stderr, as Jest tells obsolete snapshots. Returns the
 * lines printed (none under the CLI).
 */
export function handOverCassetteReports(
  reports: readonly CassetteFileReport[],
  env: NodeJS.ProcessEnv,
  print: (text: string) => void = (text) => process.stderr.write(text),
): string[] {
  const root = env[RUN_STATE_ROOT_ENV];
  if (root !== undefined && root.trim() !== '' && isDirectory(root)) {
    if (reports.length === 0) return [];
    const file = path.join(root, CASSETTE_REPORTS_FILE);
    const tmp = `${file}.${process.pid}.tmp`;
    try {
      fs.writeFileSync(tmp, JSON.stringify(reports));
      fs.renameSync(tmp, file);
    } catch (error) {
      // Only the summary's cassette line is lost; the run and its cassette files are unaffected.
      print(`m3: could not hand the cassette reports to m3 test: ${(error as Error).message}\n`);
    }
    return [];
  }
  const obsolete = reports.filter((report) => report.obsolete > 0);
  if (obsolete.length === 0) return [];
  const count = obsolete.reduce((sum, report) => sum + report.obsolete, 0);
  const removed = obsolete.every((report) => report.removed);
  const lines = [
    removed
      ? `m3: ${count} obsolete cassette entr${count === 1 ? 'y' : 'ies'} removed`
      : `m3: ${count} obsolete cassette entr${count === 1 ? 'y' : 'ies'}; to remove ${count === 1 ? 'it' : 'them'}, ` +
        're-run the whole files with M3_UPDATE_CASSETTES=1 (or npx m3 test --update-cassettes)',
  ];
  for (const report of obsolete) {
    lines.push(`  ↳ ${report.testPath}`);
    for (const test of report.obsoleteTests) lines.push(`      • ${test}`);
  }
  print(`${lines.join('\n')}\n`);
  return lines;
}

function isDirectory(folder: string): boolean {
  try {
    return fs.statSync(folder).isDirectory();
  } catch {
    return false;
  }
}
