import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SQLiteExecutionStore } from '@sf-m3/store-sqlite';
import type { CliIO } from '../CliIO';
import { runReportCommand } from '../commands/report';
import { main } from '../main';
import { seedRun } from '../summary/runFixtures.testkit';
import { parseJunit } from './junit/junitShape.testkit';

describe('m3 report --format / --flaky on a SQLite results database', () => {
  let cwd: string;
  let out: string;
  let err: string;
  let io: CliIO;
  const runIds: string[] = [];

  beforeAll(async () => {
    cwd = mkdtempSync(join(tmpdir(), 'm3-report-formats-'));
    const store = new SQLiteExecutionStore(join(cwd, 'results.sqlite'));
    for (const outcome of ['passed', 'failed', 'passed'] as const) {
      runIds.push(await seedRun(store, [{ suite: 'shipping', fullName: 'shipping local', outcome }]));
    }
    await store.close();
  });
  afterAll(() => rmSync(cwd, { recursive: true, force: true }));
  beforeEach(() => {
    out = '';
    err = '';
    io = { cwd, env: {}, stdout: (text) => (out += text), stderr: (text) => (err += text) };
  });

  test('--format junit --output writes the file (folders created, no temp file left) and exits by the verdict', async () => {
    const status = await runReportCommand(
      { runId: runIds[1], resultsDb: 'results.sqlite', format: 'junit', output: 'ci/reports/junit.xml' },
      io,
    );
    expect(status).toBe(1);
    expect(out).toBe(`wrote JUnit XML of ${runIds[1]} to ci/reports/junit.xml\n`);
    expect(readdirSync(join(cwd, 'ci', 'reports'))).toEqual(['junit.xml']);
    const report = parseJunit(readFileSync(join(cwd, 'ci', 'reports', 'junit.xml'), 'utf8'));
    expect(report).toMatchObject({ tests: 1, failures: 1 });
  });

  test('--format markdown goes to stdout, with the baseline regressions', async () => {
    const status = await runReportCommand(
      { runId: runIds[1], resultsDb: 'results.sqlite', format: 'markdown', baseline: runIds[0] },
      io,
    );
    expect(status).toBe(1);
    expect(out).toContain(`### Regressions since \`${runIds[0]}\``);
  });

  test('--flaky through main: the view of the last runs, exit 0', async () => {
    expect(await main(['report', '--flaky', '--runs', '3', '--results-db', 'results.sqlite'], io)).toBe(0);
    expect(out).toContain('1 flaky test(s) over the last 3 finished run(s)');
    expect(out).toContain('2/3 passed     ✓✕✓');
    expect(await main(['report', '--flaky', '--json', '--results-db', 'results.sqlite'], io)).toBe(0);
    expect(JSON.parse(out.slice(out.indexOf('{')))).toMatchObject({
      schemaVersion: 1,
      tests: [{ passed: 2, failed: 1 }],
    });
  });

  test('usage errors exit 2 naming the flag; an --output folder is refused', async () => {
    expect(await main(['report', '--format', 'csv', '--results-db', 'results.sqlite'], io)).toBe(2);
    expect(err).toContain('m3: --format: must be junit or markdown, not "csv"');
    mkdirSync(join(cwd, 'a-folder'));
    expect(
      await main(['report', '--format', 'junit', '--output', 'a-folder', '--results-db', 'results.sqlite'], io),
    ).toBe(2);
    expect(err).toContain('m3: --output: a-folder is a folder: name a file');
  });
});
