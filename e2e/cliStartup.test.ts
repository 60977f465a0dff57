// End-to-end: what the real `m3` bin loads before it knows there is nothing to run. `m3 --version`
// and a usage error commander rejects need neither @sf-m3/core nor a command's module, `m3 test`
// loads the viewer's server only with --ui, and `m3 report` its other outputs only when asked; every
// e2e file starts `m3` many times, so each module loaded for nothing costs the suite once per start. The loaded files are read from Node's module
// cache when the process exits (a preloaded hook), not timed.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { childEnv, ensureBuilt, m3Bin, repoRoot } from './cli.testkit';

jest.setTimeout(180_000);

/** Writes, at exit, the files in Node's module cache (one a line) to the file named by M3_E2E_LOADED. */
const HOOK = `process.on('exit', () => {
  require('node:fs').writeFileSync(process.env.M3_E2E_LOADED, Object.keys(require.cache).join('\\n'));
});
`;

let hookDir: string;
beforeAll(() => {
  ensureBuilt();
  hookDir = mkdtempSync(join(tmpdir(), 'm3-e2e-startup-'));
  writeFileSync(join(hookDir, 'hook.js'), HOOK);
});
afterAll(() => rmSync(hookDir, { recursive: true, force: true }));

/** Runs `m3 <args>` in `cwd` and returns its exit status and the repository files it loaded. */
function loadedBy(args: string[], cwd: string): { status: number | null; loaded: string[] } {
  const list = join(hookDir, 'loaded.txt');
  const run = spawnSync(process.execPath, ['-r', join(hookDir, 'hook.js'), m3Bin, ...args], {
    cwd,
    env: childEnv({ M3_E2E_LOADED: list }),
    encoding: 'utf8',
    timeout: 120_000,
  });
  const loaded = readFileSync(list, 'utf8')
    .split('\n')
    .map((file) => relative(repoRoot, file));
  return { status: run.status, loaded };
}

const heavy = (loaded: string[]) =>
  loaded.filter((file) => /^packages\/(core\/dist|cli\/dist\/(commands|ui))\//.test(file)).sort();

describe('m3 start-up', () => {
  test.each([[['--version']], [['--help']], [['test', '--bail']], [['nosuchcommand']]])(
    'm3 %j loads neither @sf-m3/core nor a command',
    (args) => {
      const run = loadedBy(args, hookDir);
      expect(run.loaded).toContain('packages/cli/dist/main.js');
      expect(heavy(run.loaded)).toEqual([]);
    },
  );

  // A usage error m3 test finds itself: the command and core's internal entry are loaded (never
  // core's public entry, docs/ARCHITECTURE.md), Jest never starts.
  test("m3 test loads its command and core's internal entry, but neither core's public entry nor the --ui viewer", () => {
    const run = loadedBy(['test', '--trials', '0'], hookDir);
    expect(run.status).toBe(2);
    expect(run.loaded).toContain('packages/cli/dist/commands/test.js');
    expect(run.loaded).toContain('packages/core/dist/internal.js');
    expect(run.loaded).not.toContain('packages/core/dist/index.js');
    expect(run.loaded.filter((file) => /^packages\/cli\/dist\/ui\/(serveViewer\.js|server\/)/.test(file))).toEqual([]);
  });

  // `m3 report` prints a summary: the test command, the HTML report (and the viewer pages it
  // renders), the CI formats and the surface report load only for the options that ask for them.
  test('m3 report loads its command, but neither m3 test nor the other report outputs', () => {
    const run = loadedBy(['report'], hookDir);
    expect(run.status).toBe(2);
    expect(run.loaded).toContain('packages/cli/dist/commands/report.js');
    const optional =
      /^packages\/cli\/dist\/(commands\/test\.js|report\/(html|junit|markdown)\/|report\/flaky\/formatFlaky\.js|ui\/(api|server)\/|surface\/formatSurfaceReport\.js)/;
    expect(run.loaded.filter((file) => optional.test(file))).toEqual([]);
  });
});
