// `m3 doctor`: one line per check of what an sf-m3 project needs — Node, the peers, the preset and
// its environment, the sqlite3 native module, the tsconfig types, the test files' relative
// imports, a writable results database and the harness executables its suites name — with the fix
// for each that is not ok. Exit 1 when a check fails. It changes nothing in the project (the database is checked by permissions only).
import { isAbsolute, resolve } from 'node:path';
import { displayPath } from '../displayPath';
import type { CliIO } from '../CliIO';
import { resolveResultsDb } from '../options/testOptions';
import { checkResultsDbAccess } from '../project/resultsDbAccess';
import { detectPackageManager } from '../project/packageManager';
import { checkPostgresResultsDb } from '../store/checkPostgresResultsDb';
import { isPostgresUrl } from '@sf-m3/core/internal';
import {
  checkJestConfig,
  checkNode,
  checkPeer,
  checkPreset,
  checkSfM3,
  checkSqlite,
  checkTsconfigTypes,
  findSfM3,
  type DoctorCheck,
} from './doctorChecks';
import { checkHarnesses } from './doctorHarnesses';
import { checkTestImports } from './doctorTestImports';

/** Options of `m3 doctor`. */
export interface DoctorCommandInput {
  resultsDb?: string;
  json?: boolean;
}

/** Which database `m3 test` would write: `--results-db`, else `M3_RESULTS_DB`, else the default. */
export function doctorResultsDb(input: DoctorCommandInput, io: CliIO): { path: string; source: string } {
  if (input.resultsDb !== undefined) return { path: resolveResultsDb(input.resultsDb, io.cwd), source: '--results-db' };
  const fromEnv = io.env.M3_RESULTS_DB;
  if (fromEnv !== undefined && fromEnv !== '') {
    const path = isPostgresUrl(fromEnv) || isAbsolute(fromEnv) ? fromEnv.trim() : resolve(io.cwd, fromEnv);
    return { path, source: 'M3_RESULTS_DB' };
  }
  return { path: resolveResultsDb(undefined, io.cwd), source: 'default' };
}

/** The `results db` check. */
export function checkResultsDb(input: DoctorCommandInput, io: CliIO): DoctorCheck {
  const { path, source } = doctorResultsDb(input, io);
  const shown = displayPath(io.cwd, path);
  if (isPostgresUrl(path)) return checkPostgresResultsDb(shown, source, io.cwd);
  const access = checkResultsDbAccess(path);
  if (!access.ok)
    return { name: 'results db', status: 'fail', detail: `${shown} (${source}): ${access.problem}`, fix: access.fix };
  const state = access.exists ? 'exists and is writable' : 'can be created by the first m3 test';
  return { name: 'results db', status: 'ok', detail: `${shown} (${source}) ${state}` };
}

/** Runs every check for the project in `io.cwd`, in the order they are printed. */
export async function runDoctorChecks(input: DoctorCommandInput, io: CliIO): Promise<DoctorCheck[]> {
  const sfM3 = findSfM3(io.cwd);
  const pm = detectPackageManager(io.cwd, io.env);
  return [
    checkNode(sfM3),
    checkSfM3(sfM3, pm),
    checkPeer('jest', sfM3, io.cwd, pm),
    checkPeer('ts-jest', sfM3, io.cwd, pm),
    checkPeer('typescript', sfM3, io.cwd, pm),
    checkJestConfig(io.cwd, pm),
    checkPreset(io.cwd, pm),
    checkSqlite(sfM3, io.cwd, pm),
    checkTsconfigTypes(io.cwd, pm),
    checkTestImports(io.cwd),
    checkResultsDb(input, io),
    ...(await checkHarnesses(io.cwd, io.env)),
  ];
}

/** The checks as text: `ok|warn|fail  <name>  <detail>`, the fix on the same line, and a count. */
export function formatDoctor(checks: readonly DoctorCheck[]): string {
  const width = Math.max(...checks.map((c) => c.name.length));
  const lines = checks.map(
    (c) =>
      `${c.status.padEnd(4)}  ${c.name.padEnd(width)}  ${c.detail}${c.fix === undefined ? '' : ` — fix: ${c.fix}`}`,
  );
  const count = (status: DoctorCheck['status']) => checks.filter((c) => c.status === status).length;
  lines.push(`doctor: ${count('ok')} ok, ${count('warn')} warn, ${count('fail')} fail`);
  return `${lines.join('\n')}\n`;
}

/** Runs `m3 doctor`; returns 1 when a check failed, else 0. */
export async function runDoctorCommand(input: DoctorCommandInput, io: CliIO): Promise<number> {
  const checks = await runDoctorChecks(input, io);
  const failed = checks.some((c) => c.status === 'fail');
  if (input.json === true) {
    io.stdout(`${JSON.stringify({ schemaVersion: 1, status: failed ? 'fail' : 'ok', checks }, null, 2)}\n`);
  } else {
    io.stdout(formatDoctor(checks));
  }
  return failed ? 1 : 0;
}
