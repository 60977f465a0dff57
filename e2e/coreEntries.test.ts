// `@sf-m3/core`'s entry points (issue 26: a front door) as a project outside this repository sees
// them: every `exports` and `typesVersions` target is in the tarball `npm pack` makes, TypeScript
// resolves `@sf-m3/core/store` and `/internal` under node10 and node16 resolution, and a third
// party's store runs the shipped contract suite under a real `jest` (the built package, not our
// ts-jest mapping): a conforming store passes, one that breaks a rule fails on that rule.
import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as ts from 'typescript';
import { ensureBuilt, repoRoot } from './cli.testkit';

const coreFolder = join(repoRoot, 'packages', 'core');

interface CorePackageJson {
  exports: Record<string, string | { types: string; default: string }>;
  typesVersions: { '*': Record<string, string[]> };
}

beforeAll(() => {
  ensureBuilt();
});

test("npm pack ships every exports and typesVersions target of @sf-m3/core, and the contract suite's modules", () => {
  const pack = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
    cwd: coreFolder,
    encoding: 'utf8',
  });
  expect(pack.status).toBe(0);
  const files = new Set((JSON.parse(pack.stdout) as [{ files: { path: string }[] }])[0].files.map((f) => f.path));
  const manifest = JSON.parse(readFileSync(join(coreFolder, 'package.json'), 'utf8')) as CorePackageJson;
  const targets = Object.values(manifest.exports).flatMap((target) =>
    typeof target === 'string' ? [target] : [target.types, target.default],
  );
  const typeTargets = Object.values(manifest.typesVersions['*']).flat();
  const missing = [...targets, ...typeTargets].map((t) => t.replace(/^\.\//, '')).filter((t) => !files.has(t));
  expect(missing).toEqual([]);
  expect(Object.keys(manifest.exports)).toEqual(expect.arrayContaining(['.', './store', './internal', './testing']));
  // The suite loads these on the call; a `.testkit` name would be left out of the tarball.
  for (const module of ['describeExecutionStoreContract', 'executionStoreSuite', 'storeFixtures', 'runShardSuite']) {
    expect(files).toContain(`dist/store/contract/${module}.js`);
  }
});

test.each([
  ['node10 (typesVersions)', ts.ModuleResolutionKind.Node10, ts.ModuleKind.CommonJS],
  ['node16 (exports)', ts.ModuleResolutionKind.Node16, ts.ModuleKind.Node16],
])(
  'TypeScript resolves @sf-m3/core/store and /internal under %s',
  (_label, moduleResolution, module) => {
    const folder = mkdtempSync(join(repoRoot, '.core-entries-'));
    try {
      const file = join(folder, 'store.ts');
      writeFileSync(
        file,
        [
          "import { describeExecutionStoreContract, lineageKey, type ExecutionStore } from '@sf-m3/core/store';",
          "import { newId } from '@sf-m3/core/internal';",
          'declare const make: () => Promise<ExecutionStore>;',
          "describeExecutionStoreContract('MyStore', make);",
          "const lineage = { executionId: newId('exec'), turnId: null, evaluator: 'my.check.v1', subjectDigest: 'd' };",
          'export const key: string = lineageKey(lineage);',
        ].join('\n'),
      );
      const program = ts.createProgram([file], {
        strict: true,
        module,
        moduleResolution,
        types: [],
        noEmit: true,
        skipLibCheck: true,
      });
      const diagnostics = ts
        .getPreEmitDiagnostics(program)
        .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      expect(diagnostics).toEqual([]);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  },
  60_000,
);

/** One test file's result in `jest --json`: its path, and the titles of its failed cases. */
interface JestFileResult {
  name: string;
  assertionResults: { title: string; status: string }[];
}

test("a third party's store runs the shipped contract suite under a real jest", async () => {
  const folder = mkdtempSync(join(tmpdir(), 'm3-core-store-entry-'));
  try {
    writeFileSync(
      join(folder, 'jest.config.js'),
      `module.exports = { rootDir: __dirname, testEnvironment: 'node', modulePaths: [${JSON.stringify(join(repoRoot, 'node_modules'))}] };\n`,
    );
    writeFileSync(
      join(folder, 'myStore.test.js'),
      [
        "const { describeExecutionStoreContract, InMemoryExecutionStore } = require('@sf-m3/core/store');",
        'class MyStore extends InMemoryExecutionStore {}',
        "describeExecutionStoreContract('MyStore', async () => new MyStore());",
      ].join('\n'),
    );
    writeFileSync(
      join(folder, 'oldestFirstStore.test.js'),
      [
        "const { describeExecutionStoreContract, InMemoryExecutionStore } = require('@sf-m3/core/store');",
        'class OldestFirstStore extends InMemoryExecutionStore {',
        '  async listRuns(options) { return (await super.listRuns(options)).reverse(); }',
        '}',
        "describeExecutionStoreContract('OldestFirstStore', async () => new OldestFirstStore());",
      ].join('\n'),
    );
    const output = join(folder, 'results.json');
    const jest = join(repoRoot, 'node_modules', 'jest', 'bin', 'jest.js');
    const args = [jest, '--ci', '-i', '--config', join(folder, 'jest.config.js'), '--json', `--outputFile=${output}`];
    const status = await new Promise<number | null>((resolve, reject) => {
      const child = execFile(process.execPath, args, { cwd: folder }, () => undefined);
      child.on('error', reject);
      child.on('close', resolve);
    });
    const results = (JSON.parse(readFileSync(output, 'utf8')) as { testResults: JestFileResult[] }).testResults;
    const failed = (file: string) =>
      results
        .find((r) => r.name.endsWith(file))!
        .assertionResults.filter((a) => a.status === 'failed')
        .map((a) => a.title);
    expect(status).toBe(1);
    expect(failed('myStore.test.js')).toEqual([]);
    expect(results.find((r) => r.name.endsWith('myStore.test.js'))!.assertionResults.length).toBeGreaterThan(20);
    expect(failed('oldestFirstStore.test.js')).toContain('saves runs, replaces them by id and lists newest first');
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}, 180_000);
