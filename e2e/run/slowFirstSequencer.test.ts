// The run's test order (slowFirstSequencer.js) on a fresh clone, where Jest's cache has no
// durations, and after a run that left them: the real @jest/test-sequencer underneath, its cache
// written by its own cacheResults as Jest does at the end of a run. The known durations are this
// file's own table (knownDurations.js's shape), so refreshing the real one changes no expectation.
import type { AggregatedResult, Test } from '@jest/test-result';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

interface Sequencer {
  sort(tests: Test[]): Test[];
  cacheResults(tests: Test[], results: AggregatedResult): void;
}
interface KnownDurations {
  readonly KNOWN_SECONDS: Readonly<Record<string, number>>;
  readonly E2E_DEFAULT_SECONDS: number;
  readonly SHARED_INSTALL_FILES: readonly string[];
  readonly SHARED_INSTALL_BUILD_SECONDS: number;
}
const SlowFirstSequencer = require('./slowFirstSequencer') as new (options: object, known: KnownDurations) => Sequencer;

const KNOWN: KnownDurations = {
  KNOWN_SECONDS: {
    'e2e/install/install.test.ts': 66,
    'e2e/install/installTypescript6.test.ts': 60,
    'e2e/install/installTypescript59.test.ts': 60,
    'e2e/faults/runFaults.test.ts': 55,
    'e2e/ui/viewer.browser.test.ts': 50,
    'e2e/cli.test.ts': 46,
    'e2e/install/installPostgres.test.ts': 46,
  },
  E2E_DEFAULT_SECONDS: 10,
  SHARED_INSTALL_FILES: [
    'e2e/install/install.test.ts',
    'e2e/install/installTypescript6.test.ts',
    'e2e/install/installTypescript59.test.ts',
    'e2e/install/installPostgres.test.ts',
  ],
  SHARED_INSTALL_BUILD_SECONDS: 180,
};
const sequencer = (): Sequencer => new SlowFirstSequencer({}, KNOWN);

const rootDir = '/repo';
const folders: string[] = [];
afterAll(() => folders.forEach((folder) => rmSync(folder, { recursive: true, force: true })));

/** Test files of one project (`path` → size in bytes), with Jest's cache off or in a folder. */
function project(files: Record<string, number>, cacheDirectory?: string): Test[] {
  const config = { rootDir, id: 'sequencer-test', cache: cacheDirectory !== undefined, cacheDirectory, haste: {} };
  const hasteFS = { getSize: (path: string) => files[path.slice(rootDir.length + 1)] };
  const context = { config, hasteFS };
  return Object.keys(files).map((path) => ({ path: join(rootDir, path), context }) as unknown as Test);
}

function order(tests: Test[]): string[] {
  return sequencer()
    .sort([...tests])
    .map((test) => test.path.slice(rootDir.length + 1));
}

const FILES = {
  'packages/core/src/small.test.ts': 500,
  'packages/core/src/large.test.ts': 9000,
  'e2e/summary.test.ts': 6000,
  'e2e/init.test.ts': 11200,
  'e2e/environment.test.ts': 11500,
  'e2e/cli.test.ts': 14000,
  'e2e/faults/runFaults.test.ts': 12000,
  'e2e/ui/viewer.browser.test.ts': 21000,
  'e2e/install/install.test.ts': 8800,
  'e2e/install/installTypescript6.test.ts': 800,
  'e2e/install/installTypescript59.test.ts': 1100,
  'e2e/install/installPostgres.test.ts': 1100,
};

test('without durations in the cache: the builder of the shared install first, the slow files next, the other install files once the build is paid for', () => {
  expect(order(project(FILES))).toEqual([
    'e2e/install/install.test.ts',
    // 55 + 50 + 46 + 3 × 10 (e2e files not in the table) s: the build's 180 s
    'e2e/faults/runFaults.test.ts',
    'e2e/ui/viewer.browser.test.ts',
    'e2e/cli.test.ts',
    'e2e/environment.test.ts',
    'e2e/init.test.ts',
    'e2e/summary.test.ts',
    'e2e/install/installTypescript59.test.ts',
    'e2e/install/installTypescript6.test.ts',
    'e2e/install/installPostgres.test.ts',
    'packages/core/src/large.test.ts',
    'packages/core/src/small.test.ts',
  ]);
});

test('the durations a previous run cached come before the known ones, and its failures right after the install’s builder', () => {
  const cacheDirectory = mkdtempSync(join(tmpdir(), 'm3-sequencer-'));
  folders.push(cacheDirectory);
  const tests = project(FILES, cacheDirectory);
  const ran = (path: string, seconds: number, failed = false) => ({
    testFilePath: join(rootDir, path),
    numFailingTests: failed ? 1 : 0,
    perfStats: { runtime: seconds * 1000 },
  });
  sequencer().cacheResults(tests, {
    testResults: [
      ran('packages/core/src/small.test.ts', 120),
      ran('e2e/summary.test.ts', 2, true),
      ran('e2e/cli.test.ts', 1),
    ],
  } as unknown as AggregatedResult);

  expect(order(tests)).toEqual([
    'e2e/install/install.test.ts',
    'e2e/summary.test.ts', // failed last time
    // 120 (cached) + 55 + 50 s: the build's 180 s
    'packages/core/src/small.test.ts',
    'e2e/faults/runFaults.test.ts',
    'e2e/ui/viewer.browser.test.ts',
    'e2e/install/installTypescript59.test.ts',
    'e2e/install/installTypescript6.test.ts',
    'e2e/install/installPostgres.test.ts',
    'e2e/environment.test.ts',
    'e2e/init.test.ts',
    'e2e/cli.test.ts', // 1 s (cached)
    'packages/core/src/large.test.ts',
  ]);
});

test('a run without the install files keeps the plain slowest-first order', () => {
  const withoutInstall = Object.fromEntries(Object.entries(FILES).filter(([path]) => !path.startsWith('e2e/install/')));
  expect(order(project(withoutInstall))).toEqual([
    'e2e/faults/runFaults.test.ts',
    'e2e/ui/viewer.browser.test.ts',
    'e2e/cli.test.ts',
    'e2e/environment.test.ts',
    'e2e/init.test.ts',
    'e2e/summary.test.ts',
    'packages/core/src/large.test.ts',
    'packages/core/src/small.test.ts',
  ]);
});

test('the real table names test files that exist, and every file that uses the shared install', () => {
  const real = require('./knownDurations') as KnownDurations;
  const repoRoot = join(__dirname, '..', '..');
  const named = [...Object.keys(real.KNOWN_SECONDS), ...real.SHARED_INSTALL_FILES];
  expect(named.filter((path) => !existsSync(join(repoRoot, path)))).toEqual([]);
  const installFolder = join(repoRoot, 'e2e', 'install');
  const usingInstall = readdirSync(installFolder)
    .filter((file) => file.endsWith('.test.ts'))
    .filter((file) => readFileSync(join(installFolder, file), 'utf8').includes('installedProjectForFile('))
    .map((file) => `e2e/install/${file}`);
  expect([...real.SHARED_INSTALL_FILES].sort()).toEqual(usingInstall.sort());
});
