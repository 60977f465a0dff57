// @sf-m3/store-postgres the way a user gets it: its tarball installed into a copy of the install
// test's project with the command of its README's Setup (after the quick start, so that one install
// of sf-m3 and sqlite3 serves both), then `m3 test`, `m3 runs` and `m3 report` (its installed bin)
// there against a real throwaway PostgreSQL cluster, through a URL whose password must never be
// printed or saved.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { clusterForTests } from '@sf-m3/test-utils/postgres';
import { STORE_POSTGRES, type InstalledProject } from './installedProject';
import { sourceMappedFiles } from './packTarballs';
import { brokenInstalledLinks } from './shippedLinks';
import { installCommand, normalizeRunIds, SETUP_HEADING } from './readmeQuickStart';
import { installArguments, output, run, type CommandResult } from './userProject';

const MINUTE = 60_000;

/** The install command of packages/store-postgres/README.md ("Setup"). */
export function readStorePostgresInstall(repoRoot: string): string {
  const readme = readFileSync(join(repoRoot, 'packages', 'store-postgres', 'README.md'), 'utf8');
  return installCommand(readme, SETUP_HEADING, STORE_POSTGRES);
}

/** Every file under `folder`, recursively. */
function filesUnder(folder: string): string[] {
  return readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .map((file) => join(folder, file))
    .filter((file) => statSync(file).isFile());
}

/** What must agree between the SQLite and the PostgreSQL run of one suite (ids and times differ). */
function comparable(reportJson: string): unknown {
  const summary = JSON.parse(reportJson) as Record<string, any>;
  return {
    status: summary.status,
    verdict: summary.verdict,
    attempts: summary.attempts,
    suites: summary.suites.map((suite: Record<string, any>) => [suite.name, suite.attempts]),
    failedTests: summary.failedTests,
    evaluations: summary.evaluations,
  };
}

/**
 * The describe block of the PostgreSQL store, for installTypescript6.test.ts to call after the
 * quick start, once the README's files and the SQLite run of tests/shipping.test.ts are in the project.
 */
export function storePostgresChecks(repoRoot: string, installed: () => InstalledProject): void {
  describe(`${STORE_POSTGRES} installed with its README command, on a real PostgreSQL`, () => {
    const cluster = clusterForTests();
    const readmeInstall = readStorePostgresInstall(repoRoot);
    const printed: string[] = [];
    let url: string;
    let password: string;
    let shownUrl: string;
    let testRun: CommandResult;

    /**
     * `m3 <args>` in the project: its installed bin, which `npx m3` runs, called directly (npx's own
     * start-up is more CPU than an `m3 runs`); what it prints is kept for the password check.
     */
    async function m3(args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<CommandResult> {
      const { project } = installed();
      const result = await run(project, join(project, 'node_modules', '.bin', 'm3'), args, 5 * MINUTE, env);
      printed.push(output(result));
      return result;
    }

    beforeAll(async () => {
      url = await cluster().createDatabase('m3_install');
      password = new URL(url).password;
      shownUrl = `postgres://[REDACTED]@127.0.0.1:${cluster().port}/m3_install`;
    });

    test('before it is installed, m3 test names the package and the README command that installs it', async () => {
      const result = await m3(['test', 'tests/shipping.test.ts', '--results-db', url]);
      expect(result.stderr).toContain(
        `the results database ${shownUrl} is PostgreSQL, which needs the ${STORE_POSTGRES} package: install it (${readmeInstall})`,
      );
      expect(result.status).toBe(2);
    });

    test(`${readmeInstall} installs its tarball (pg from the registry, @sf-m3/core from its tarball)`, async () => {
      const { work, project, packed, figures } = installed();
      const entry = packed.find((candidate) => candidate.name === STORE_POSTGRES)!;
      const install = await run(project, 'npm', installArguments(readmeInstall, entry), 5 * MINUTE);
      figures.push(`npm install of ${STORE_POSTGRES} into the project: ${install.seconds.toFixed(1)} s`);
      expect(output(install)).not.toMatch(/npm error/);
      expect(install.status).toBe(0);
      const manifest = JSON.parse(readFileSync(join(project, 'package.json'), 'utf8'));
      const tarball = `file:../${entry.tarball.slice(work.length + 1)}`;
      expect(manifest.devDependencies[STORE_POSTGRES]).toBe(tarball);
      const lock = JSON.parse(readFileSync(join(project, 'package-lock.json'), 'utf8'));
      expect(lock.packages[`node_modules/${STORE_POSTGRES}`].resolved).toBe(tarball);
      expect(lock.packages['node_modules/@sf-m3/core'].resolved).toMatch(/^file:\.\.\/packs\/sf-m3-core-/);
      // pg from the registry: npm may leave a registry package's `resolved` out of the lock.
      expect(lock.packages['node_modules/pg'].version).toMatch(/^8\./);
      expect(lock.packages['node_modules/pg'].resolved ?? 'the registry').not.toMatch(/^file:/);
      expect(sourceMappedFiles(join(project, 'node_modules', STORE_POSTGRES), entry)).toEqual([]);
    });

    test('then every relative link in every shipped README and guide resolves in node_modules, its own too', () => {
      const { project, packed } = installed();
      expect(brokenInstalledLinks(join(project, 'node_modules'), packed)).toEqual([]);
    });

    test('npx m3 test --results-db postgres://… saves the run there and prints the README summary', async () => {
      const { project, quickStart, figures } = installed();
      const sqlite = join(project, '.m3', 'executions.sqlite');
      const sqliteBefore = statSync(sqlite).mtimeMs;
      testRun = await m3(['test', 'tests/shipping.test.ts', '--results-db', url]);
      figures.push(`npx m3 test --results-db postgres://…: ${testRun.seconds.toFixed(1)} s`);
      expect(testRun.stderr).toContain('Tests:       1 passed, 1 total');
      const [first, ...rest] = normalizeRunIds(testRun.stdout).split('\n');
      expect(first).toBe(`m3 run run-<id>  (saved to ${shownUrl})`);
      expect(rest).toEqual(normalizeRunIds(quickStart.summary).split('\n').slice(1));
      expect(testRun.status).toBe(0);
      expect(statSync(sqlite).mtimeMs).toBe(sqliteBefore); // the SQLite history is left alone
    });

    test('npx m3 runs --results-db postgres://… lists that run once', async () => {
      const runId = /^m3 run (run-[0-9a-f]{32}) /.exec(testRun.stdout)![1]!;
      const runs = await m3(['runs', '--results-db', url]);
      const lines = runs.stdout.trimEnd().split('\n');
      expect(lines).toHaveLength(2);
      expect(lines[0]).toMatch(/^RUN +STARTED +STATUS +ATTEMPTS/);
      expect(lines[1]).toMatch(new RegExp(`^${runId} +\\S+ +passed +1 passed, 0 failed, 0 skipped, 0 todo$`));
      expect(runs.status).toBe(0);
    });

    test('npx m3 report with M3_RESULTS_DB prints that run, with the counts of the SQLite run', async () => {
      const env = { M3_RESULTS_DB: url };
      const report = await m3(['report'], env);
      expect(report.stdout).toBe(testRun.stdout);
      expect(report.status).toBe(0);
      const fromPostgres = await m3(['report', '--json'], env);
      const fromSqlite = await m3(['report', '--json']); // the last quick-start run, same suite
      expect(JSON.parse(fromPostgres.stdout).resultsDb).toBe(shownUrl);
      expect(JSON.parse(fromSqlite.stdout).resultsDb).toBe('.m3/executions.sqlite');
      expect(comparable(fromPostgres.stdout)).toEqual(comparable(fromSqlite.stdout));
      expect([fromPostgres.status, fromSqlite.status]).toEqual([0, 0]);
    });

    test('the password is in no output and no file under .m3', () => {
      expect(printed.length).toBeGreaterThanOrEqual(5);
      for (const text of printed) expect(text.includes(password)).toBe(false);
      const files = filesUnder(join(installed().project, '.m3'));
      expect(files.length).toBeGreaterThan(0);
      const leaking = files.filter((file) => readFileSync(file).includes(password));
      expect(leaking).toEqual([]);
    });
  });
}
