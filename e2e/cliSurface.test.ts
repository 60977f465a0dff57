// Surface coverage through the real `m3 test` (contract §25): the fixture project's run prints a
// surface block per server, writes it into feedback.json, and a `surfaceThreshold` from
// package.json or the Jest config's testEnvironmentOptions.m3 fails the run (exit 1, naming what
// is uncovered) or lets it pass; `m3 report --surface` and the JUnit report carry the same numbers.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { copyFixture, ensureBuilt, removeFixture, runM3 } from './cli.testkit';

beforeAll(() => {
  ensureBuilt();
}, 300_000);

const NEVER_CALLED =
  'batch_total, catalog_marker, create_order, get_order, normalize_customer, process_id, session_observations';

describe('m3 test with surface coverage', () => {
  let folder: string;
  beforeEach(() => {
    folder = copyFixture('cli-surface');
  });
  afterEach(() => removeFixture(folder));

  test('a missed package.json surfaceThreshold exits 1 and lists the tools no test called', () => {
    writeFileSync(
      join(folder, 'package.json'),
      JSON.stringify({ name: 'surface-fixture', private: true, m3: { surfaceThreshold: { global: { tools: 50 } } } }),
    );
    const run = runM3(['test'], folder);
    expect(run.stderr).toMatch(/Tests:\s+3 passed, 3 total/);
    expect(run.status).toBe(1);
    expect(run.stdout).toContain('surface     example-mcp\n');
    expect(run.stdout).toContain(`  tools 2/9 called — never: ${NEVER_CALLED}\n`);
    expect(run.stdout).toContain('  succeeded 1/9 · properties 2/');
    expect(run.stdout).toContain('enum values 2/3');
    expect(run.stdout).toContain('  only isError results: always_fails\n');
    expect(run.stdout).toContain(`  ✕ surface example-mcp tools ≥ 50%: 22.2% (2/9) — never called: ${NEVER_CALLED}\n`);
    expect(run.stdout).toMatch(/verdict\s+failed: gate failed: surface example-mcp tools ≥ 50%/);

    const runId = /m3 run (run-[0-9a-f]+)/.exec(run.stdout)![1]!;
    const feedback = JSON.parse(readFileSync(join(folder, '.m3', 'reports', runId, 'feedback.json'), 'utf8'));
    expect(feedback.surface.servers[0]).toMatchObject({
      server: 'example-mcp',
      measures: { tools: { covered: 2, total: 9, percent: 22.22 }, enums: { covered: 2, total: 3 } },
      neverSucceeded: ['always_fails'],
    });

    const report = runM3(['report', '--surface', '--json'], folder);
    expect(report.status).toBe(0);
    expect(JSON.parse(report.stdout)).toMatchObject({ runId, servers: [{ server: 'example-mcp' }] });
    const junit = runM3(['report', '--format', 'junit'], folder);
    expect(junit.stdout).toContain('<property name="m3.surface.example-mcp.tools" value="2/9"/>');
    expect(junit.stdout).toContain('<property name="m3.surface.example-mcp.enums" value="2/3"/>');
  }, 180_000);

  test('a surfaceThreshold in testEnvironmentOptions.m3 that the run meets passes (exit 0)', () => {
    const threshold = JSON.stringify({ 'example-mcp': { tools: 20, enums: 60 } });
    const run = runM3(['test'], folder, { E2E_SURFACE_THRESHOLD: threshold });
    expect(run.stdout).toContain('  ✓ surface thresholds: every server meets them (1 server(s))\n');
    expect(run.stdout).toMatch(/verdict\s+passed/);
    expect(run.status).toBe(0);
  }, 180_000);

  test('a bad surfaceThreshold is a usage error naming the key (exit 2)', () => {
    const run = runM3(['test'], folder, { E2E_SURFACE_THRESHOLD: JSON.stringify({ global: { tool: 50 } }) });
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('testEnvironmentOptions.m3.surfaceThreshold.global.tool: is not a surface measure');
  }, 180_000);
});
