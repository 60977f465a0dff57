// The install test, the way Jest tests its own packages: `npm pack` every package, install the
// tarballs (and nothing else from this repository) into a fresh project under os.tmpdir() with the
// README's own `npm install` command, copy in the README's quick-start files as written (plus a real
// MCP server built on the official SDK at dist/server.js), and run `npx m3 test` and plain
// `npx jest` there with TypeScript 6.x (what that command installs) and then 5.9; type-check every
// documented entry point under module commonjs, node16 and bundler; then add @sf-m3/store-postgres
// with its README's command and run m3 on a real PostgreSQL (postgresInstall.ts). One install
// (installedProject.ts; sqlite3 builds from source, minutes) serves every check in this file.
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { repoRoot } from '../cli.testkit';
import { checkEntryPoints, RESOLUTION_MODES } from './entryPointTypes';
import { installQuickStartProject, quickStartPackages, STORE_POSTGRES } from './installedProject';
import { brokenInstalledLinks } from './shippedLinks';
import { sourceMappedFiles, unshippableFiles, type PackedPackage } from './packTarballs';
import { storePostgresChecks } from './postgresInstall';
import { normalizeRunIds, type QuickStart } from './readmeQuickStart';
import { installedVersion, log, killRunning, npxIn, output, run, type CommandResult } from './userProject';
import { typeErrorsOutsideThirdParty } from './typeErrors';

const MINUTE = 60_000;
// Each Jest or m3 run in the project starts ts-jest cold on a loaded machine.
jest.setTimeout(6 * MINUTE);

let work: string;
let project: string;
let packed: readonly PackedPackage[];
let quickStart: QuickStart;
const figures: string[] = [];

/** `npx <args>` in the project, without ever installing a missing command. */
function npx(args: string[], timeoutMs = 5 * MINUTE): Promise<CommandResult> {
  return npxIn(project, args, timeoutMs);
}

/** Runs a README command (`npx m3 …`) as written, through npx in the project. */
function readmeCommand(command: string): Promise<CommandResult> {
  const [program, ...args] = command.trim().split(/\s+/);
  if (program !== 'npx') throw new Error(`the README command is not an npx command: ${command}`);
  return npx(args);
}

/** Writes the README's quick-start files (jest.config.js, tsconfig.json, the test) as written. */
function writeReadmeFiles(): void {
  for (const [file, text] of quickStart.files) {
    mkdirSync(dirname(join(project, file)), { recursive: true });
    writeFileSync(join(project, file), text);
    log(`wrote ${file} from README.md`);
  }
}

/** Size and mtime of the project's results database, or null when there is none. */
function resultsDbStamp(): string | null {
  const file = join(project, '.m3', 'executions.sqlite');
  return existsSync(file) ? `${statSync(file).size}@${statSync(file).mtimeMs}` : null;
}

beforeAll(async () => {
  ({ work, project, packed, quickStart } = await installQuickStartProject(repoRoot, figures));
}, 15 * MINUTE);

afterAll(() => {
  killRunning();
  for (const line of figures) log(line);
  if (work !== undefined) rmSync(work, { recursive: true, force: true });
});

describe('the packed tarballs', () => {
  test('ship built JavaScript, declarations, README and LICENSE only', () => {
    expect(packed.map((entry) => entry.name).sort()).toEqual([
      '@sf-m3/cli',
      '@sf-m3/core',
      '@sf-m3/jest-environment',
      '@sf-m3/matchers',
      '@sf-m3/store-postgres',
      '@sf-m3/store-sqlite',
      'sf-m3',
    ]);
    for (const entry of packed) {
      expect({ name: entry.name, wrong: unshippableFiles(entry.files) }).toEqual({ name: entry.name, wrong: [] });
      expect(entry.files).toEqual(expect.arrayContaining(['package.json', 'README.md', 'LICENSE']));
    }
  });

  test('every relative link in every README and guide they ship resolves in the installed node_modules', () => {
    const installed = quickStartPackages(packed);
    const markdown = installed.flatMap((entry) => entry.files.filter((file) => file.endsWith('.md')));
    expect(markdown).toEqual(expect.arrayContaining(['docs/direct-client.md', 'docs/regressions.md']));
    const later = packed.filter((entry) => entry.name === STORE_POSTGRES); // installed by its own README command
    expect(brokenInstalledLinks(join(project, 'node_modules'), installed, later)).toEqual([]);
  });

  test('installed JavaScript names no source map, so stack traces point at shipped files', () => {
    for (const entry of quickStartPackages(packed)) {
      const mapped = sourceMappedFiles(join(project, 'node_modules', entry.name), entry);
      expect({ name: entry.name, mapped }).toEqual({ name: entry.name, mapped: [] });
    }
  });

  test('sf-m3 depends on the five @sf-m3 packages at their exact versions, installed from the tarballs', () => {
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
      rmSync(join(project, file), { recursive: true, force: true });
    }
  });

  test(`${quickStart?.commands[1] ?? 'npx m3 init'} sets the project up`, async () => {
    const init = await readmeCommand(quickStart.commands[1]!);
    expect(output(init)).toContain('starter suite  wrote tests/mcp-behavior.m3.test.ts');
    expect(output(init)).toContain('next: npx m3 test');
    expect(init.status).toBe(0);
    expect(readFileSync(join(project, 'jest.config.js'), 'utf8')).toContain("preset: 'sf-m3'");
  });

  test('then npx m3 test is green on the starter suite and saves the run', async () => {
    const result = await readmeCommand(quickStart.commands[2]!);
    figures.push(`npx m3 test after m3 init: ${result.seconds.toFixed(1)} s`);
    expect(result.stdout).toContain('suites      mcp-behavior\n');
    expect(result.stdout).toMatch(/attempts {4}[1-9]\d* passed, 0 failed/);
    expect(result.stdout).toMatch(/verdict {5}passed\n$/);
    expect(result.status).toBe(0);
    expect(existsSync(join(project, '.m3', 'executions.sqlite'))).toBe(true);
  });

  test('and npx m3 doctor finds nothing to fix', async () => {
    const doctor = await npx(['m3', 'doctor']);
    expect(output(doctor)).toMatch(/doctor: \d+ ok, \d+ warn, 0 fail/);
    expect(doctor.status).toBe(0);
  });
});

describe('the installed packages', () => {
  beforeAll(() => writeReadmeFiles());

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
    const result = await run(project, process.execPath, ['-e', script], MINUTE);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    const resolved = result.stdout.trim().split('\n');
    expect(resolved).toHaveLength(6);
    for (const file of resolved) expect(file.startsWith(join(project, 'node_modules'))).toBe(true);
  });

  test('both m3 bins (sf-m3 and @sf-m3/cli) run the installed CLI', async () => {
    const viaNpx = await npx(['m3', '--help'], MINUTE);
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
    const version = packed.find((entry) => entry.name === 'sf-m3')!.version;
    for (const flag of ['--version', '-V']) {
      const result = await npx(['m3', flag], MINUTE);
      expect({ flag, status: result.status, stdout: result.stdout }).toEqual({
        flag,
        status: 0,
        stdout: `${version}\n`,
      });
    }
  });

  test('a preset whose @sf-m3 package is missing names it and the fix, not "should have jest-preset.js"', async () => {
    const installed = join(project, 'node_modules', '@sf-m3', 'matchers');
    const hidden = join(work, 'matchers-hidden');
    renameSync(installed, hidden);
    try {
      const result = await npx(['jest']);
      expect(result.status).toBe(1);
      expect(output(result)).toContain(
        'the sf-m3 preset needs @sf-m3/matchers, which is not installed next to sf-m3: run `npm install --save-dev sf-m3`',
      );
      expect(output(result)).not.toContain('should have "jest-preset.js"');
    } finally {
      renameSync(hidden, installed);
    }
  });
});

/** The quick start and the type checks, with the TypeScript installed in the project now. */
function quickStartChecks(line: string): void {
  test(`typescript ${line}.x is the one installed`, async () => {
    const version = await installedVersion(project, 'typescript');
    log(`typescript ${version}`);
    expect(version.startsWith(`${line}.`)).toBe(true);
  });

  test('plain npx jest runs the README test green and writes nothing', async () => {
    const before = resultsDbStamp();
    const result = await npx(['jest']);
    figures.push(`npx jest (typescript ${line}): ${result.seconds.toFixed(1)} s`);
    expect(result.stderr).toContain('Tests:       1 passed, 1 total');
    expect(result.status).toBe(0);
    expect(resultsDbStamp()).toBe(before);
  });

  test('npx m3 test runs it green, saves the run and prints the summary the README shows', async () => {
    const result = await readmeCommand(quickStart.commands.at(-1)!);
    figures.push(`npx m3 test (typescript ${line}): ${result.seconds.toFixed(1)} s`);
    expect(result.stderr).toContain('Tests:       1 passed, 1 total');
    expect(normalizeRunIds(result.stdout)).toBe(normalizeRunIds(quickStart.summary));
    expect(result.status).toBe(0);
    expect(existsSync(join(project, '.m3', 'executions.sqlite'))).toBe(true);
  });

  test.each(RESOLUTION_MODES.map((mode) => [mode.name, mode] as const))(
    'every documented entry point type-checks under %s resolution',
    async (_name, mode) => {
      const result = await checkEntryPoints(project, mode);
      const { ours, thirdParty } = typeErrorsOutsideThirdParty(output(result));
      for (const error of thirdParty) log(`third-party declaration error (not sf-m3's): ${error}`);
      expect(ours).toEqual([]);
      if (thirdParty.length === 0) expect(result.status).toBe(0);
    },
  );
}

describe('the README quick start with typescript 6 (what its npm install picks)', () => {
  quickStartChecks('6');
});

describe('the README quick start with typescript 5.9', () => {
  beforeAll(async () => {
    const swap = await run(
      project,
      'npm',
      ['install', '--save-dev', 'typescript@~5.9.3', '--prefer-offline', '--no-audit', '--no-fund'],
      5 * MINUTE,
    );
    if (swap.status !== 0) throw new Error(`installing typescript 5.9 failed:\n${output(swap)}`);
  }, 6 * MINUTE);

  quickStartChecks('5.9');
});

storePostgresChecks(repoRoot, () => ({ work, project, packed, quickStart, figures }));
