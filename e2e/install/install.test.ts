// The install test, the way Jest tests its own packages: `npm pack` every package, install the
// tarballs (and nothing else from this repository) into a fresh project under os.tmpdir() with the
// README's own `npm install` command, and check what was packed and installed, the README's
// `npx m3 init` / `npx m3 test` / `npx m3 doctor`, and the installed entry points and bins. One
// install per Jest run (sharedInstalledProject.ts; sqlite3 from a local prebuild of the
// repository's binding, sqlite3Prebuild.ts) serves this file and its siblings, each on its own
// copy: the quick start under TypeScript 6 followed by @sf-m3/store-postgres on a real PostgreSQL
// (installTypescript6.test.ts), the quick start under TypeScript 5.9 (installTypescript59.test.ts),
// the SDK v2 era servers (installEras.test.ts) and the tarballs under pnpm (installPnpm.test.ts),
// so they can run in parallel workers.
import { existsSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { quickStartPackages, STORE_POSTGRES } from './installedProject';
import { installedProjectForFile, MINUTE, npx, readmeCommand, writeReadmeFiles } from './installedProjectFile';
import { sourceMappedFiles, unshippableFiles } from './packTarballs';
import { brokenInstalledLinks } from './shippedLinks';
import { output, run } from './userProject';

// Each Jest or m3 run in the project starts ts-jest cold on a loaded machine.
jest.setTimeout(6 * MINUTE);

const installed = installedProjectForFile('quickstart');

describe('the packed tarballs', () => {
  test('ship built JavaScript, declarations, README and LICENSE only', () => {
    expect(
      installed()
        .packed.map((entry) => entry.name)
        .sort(),
    ).toEqual([
      '@sf-m3/cli',
      '@sf-m3/core',
      '@sf-m3/jest-environment',
      '@sf-m3/matchers',
      '@sf-m3/store-postgres',
      '@sf-m3/store-sqlite',
      'sf-m3',
    ]);
    for (const entry of installed().packed) {
      expect({ name: entry.name, wrong: unshippableFiles(entry.files) }).toEqual({ name: entry.name, wrong: [] });
      expect(entry.files).toEqual(expect.arrayContaining(['package.json', 'README.md', 'LICENSE']));
    }
  });

  test('every relative link in every README and guide they ship resolves in the installed node_modules', () => {
    const { packed, project } = installed();
    const quickStartInstalled = quickStartPackages(packed);
    const markdown = quickStartInstalled.flatMap((entry) => entry.files.filter((file) => file.endsWith('.md')));
    expect(markdown).toEqual(expect.arrayContaining(['docs/direct-client.md', 'docs/regressions.md']));
    const later = packed.filter((entry) => entry.name === STORE_POSTGRES); // installed by its own README command
    expect(brokenInstalledLinks(join(project, 'node_modules'), quickStartInstalled, later)).toEqual([]);
  });

  test('installed JavaScript names no source map, so stack traces point at shipped files', () => {
    const { packed, project } = installed();
    for (const entry of quickStartPackages(packed)) {
      const mapped = sourceMappedFiles(join(project, 'node_modules', entry.name), entry);
      expect({ name: entry.name, mapped }).toEqual({ name: entry.name, mapped: [] });
    }
  });

  test('sf-m3 depends on the five @sf-m3 packages at their exact versions, installed from the tarballs', () => {
    const { packed, project, work } = installed();
    const manifest = JSON.parse(readFileSync(join(project, 'node_modules', 'sf-m3', 'package.json'), 'utf8'));
    const scoped = quickStartPackages(packed).filter((entry) => entry.name.startsWith('@sf-m3/'));
    for (const entry of scoped) expect(manifest.dependencies[entry.name]).toBe(entry.version);
    expect(manifest.dependencies[STORE_POSTGRES]).toBeUndefined(); // its README: sf-m3 does not depend on it
    const lock = JSON.parse(readFileSync(join(project, 'package-lock.json'), 'utf8'));
    for (const entry of quickStartPackages(packed)) {
      const tarball = entry.tarball.slice(work.length + 1); // packs/<file>.tgz, beside the project
      expect(lock.packages[`node_modules/${entry.name}`].resolved).toBe(`file:../${tarball}`);
    }
  });
});

describe('the README quick start: npm install, npx m3 init, npx m3 test', () => {
  afterAll(() => {
    // What init wrote and the run it saved go, so the next blocks start from the README's files.
    for (const file of ['jest.config.js', 'tsconfig.json', '.gitignore', 'tests', '.m3']) {
      rmSync(join(installed().project, file), { recursive: true, force: true });
    }
  });

  test("the README's npx m3 init sets the project up", async () => {
    const { project, quickStart } = installed();
    const init = await readmeCommand(installed(), quickStart.commands[1]!);
    expect(output(init)).toContain('starter suite  wrote tests/mcp-behavior.m3.test.ts');
    expect(output(init)).toContain('next: npx m3 test');
    expect(init.status).toBe(0);
    expect(readFileSync(join(project, 'jest.config.js'), 'utf8')).toContain("preset: 'sf-m3'");
  });

  test('then npx m3 test is green on the starter suite and saves the run', async () => {
    const { project, quickStart, figures } = installed();
    const result = await readmeCommand(installed(), quickStart.commands[2]!);
    figures.push(`npx m3 test after m3 init: ${result.seconds.toFixed(1)} s`);
    expect(result.stdout).toContain('suites      mcp-behavior\n');
    expect(result.stdout).toMatch(/attempts {4}[1-9]\d* passed, 0 failed/);
    expect(result.stdout).toMatch(/verdict {5}passed\n$/);
    expect(result.status).toBe(0);
    expect(existsSync(join(project, '.m3', 'executions.sqlite'))).toBe(true);
  });

  test('and npx m3 doctor finds nothing to fix', async () => {
    const doctor = await npx(installed(), ['m3', 'doctor']);
    expect(output(doctor)).toMatch(/doctor: \d+ ok, \d+ warn, 0 fail/);
    expect(doctor.status).toBe(0);
  });
});

describe('the installed packages', () => {
  beforeAll(() => writeReadmeFiles(installed()));

  test("require('sf-m3') and its entry points load from the project's node_modules, not this repository", async () => {
    const script = [
      "const assert = require('node:assert');",
      "const m3 = require('sf-m3');",
      "assert.strictEqual(typeof m3.StdioServer, 'function');",
      "assert.strictEqual(typeof m3.MCPTestKit, 'function');",
      "assert.strictEqual(typeof m3.SQLiteExecutionStore, 'function');",
      "assert.strictEqual(typeof require('sf-m3/testing').FakeChatCompletionsServer, 'function');",
      "assert.strictEqual(typeof require('sf-m3/jest-preset').testEnvironment, 'string');",
      "const names = ['sf-m3', '@sf-m3/core', '@sf-m3/jest-environment', '@sf-m3/matchers', '@sf-m3/store-sqlite', '@sf-m3/cli'];",
      'for (const name of names) console.log(require.resolve(name));',
    ].join('\n');
    const { project } = installed();
    const result = await run(project, process.execPath, ['-e', script], MINUTE);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    const resolved = result.stdout.trim().split('\n');
    expect(resolved).toHaveLength(6);
    for (const file of resolved) expect(file.startsWith(join(project, 'node_modules'))).toBe(true);
  });

  test('both m3 bins (sf-m3 and @sf-m3/cli) run the installed CLI', async () => {
    const { project } = installed();
    const viaNpx = await npx(installed(), ['m3', '--help'], MINUTE);
    const viaRoot = await run(
      project,
      process.execPath,
      [join(project, 'node_modules', 'sf-m3', 'bin', 'm3.js'), '--help'],
      MINUTE,
    );
    for (const result of [viaNpx, viaRoot]) {
      expect(result.status).toBe(0);
      expect(output(result)).toContain('Usage: m3 [options] [command]');
    }
  });

  test('npx m3 --version and -V print the installed sf-m3 version', async () => {
    const version = installed().packed.find((entry) => entry.name === 'sf-m3')!.version;
    for (const flag of ['--version', '-V']) {
      const result = await npx(installed(), ['m3', flag], MINUTE);
      expect({ flag, status: result.status, stdout: result.stdout }).toEqual({
        flag,
        status: 0,
        stdout: `${version}\n`,
      });
    }
  });

  test('a preset whose @sf-m3 package is missing names it and the fix, not "should have jest-preset.js"', async () => {
    const { project, work } = installed();
    const matchers = join(project, 'node_modules', '@sf-m3', 'matchers');
    const hidden = join(work, 'matchers-hidden');
    renameSync(matchers, hidden);
    try {
      const result = await npx(installed(), ['jest']);
      expect(result.status).toBe(1);
      expect(output(result)).toContain(
        'the sf-m3 preset needs @sf-m3/matchers, which is not installed next to sf-m3: run `npm install --save-dev sf-m3`',
      );
      expect(output(result)).not.toContain('should have "jest-preset.js"');
    } finally {
      renameSync(hidden, matchers);
    }
  });
});
