// The cassette reports of one `m3 test` run: the preset's global teardown copies the workers'
// `cassette_file` reports into the run-state folder the CLI gave Jest (`M3_RUN_STATE_ROOT`) before
// it removes its own; the CLI reads them after Jest, before it removes that folder.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CassetteFileReport } from './cassetteSummary';

/** The file global teardown writes under `M3_RUN_STATE_ROOT` (the preset's `CASSETTE_REPORTS_FILE`). */
export const CASSETTE_REPORTS_FILE = 'cassette-reports.json';

/** The reports of the run; none when Jest wrote none (no cassette used, or Jest never reached teardown). */
export function readCassetteReports(stateRoot: string): CassetteFileReport[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(join(stateRoot, CASSETTE_REPORTS_FILE), 'utf8'));
  } catch {
    return [];
  }
  return Array.isArray(parsed) ? parsed.filter(isCassetteFileReport) : [];
}

function isCassetteFileReport(value: unknown): value is CassetteFileReport {
  const report = value as Partial<CassetteFileReport> | null;
  return (
    typeof report === 'object' &&
    report !== null &&
    report.kind === 'cassette_file' &&
    typeof report.testPath === 'string' &&
    typeof report.obsolete === 'number' &&
    Array.isArray(report.obsoleteTests)
  );
}
