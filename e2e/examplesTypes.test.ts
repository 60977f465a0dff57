// Type test: the example suites (examples/tsconfig.json, against the built `sf-m3` types) and the
// fixture agents' tests (examples/fixtures/tsconfig.json) compile. `npm test` runs the fixture tests
// through ts-jest with isolatedModules, which only transpiles, and does not run the example suites
// at all, so without this a type error in either would pass `npm test` unnoticed.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { ensureBuilt, repoRoot } from './cli.testkit';

const TSC = require.resolve('typescript/bin/tsc');

function typeCheck(tsconfig: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [TSC, '--noEmit', '-p', join(repoRoot, tsconfig)], (error, stdout, stderr) => {
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, output: `${stdout}${stderr}` });
    });
  });
}

beforeAll(() => {
  ensureBuilt();
});

test('the example suites and the fixture agents’ tests type-check', async () => {
  const [suites, fixtures] = await Promise.all([
    typeCheck('examples/tsconfig.json'),
    typeCheck('examples/fixtures/tsconfig.json'),
  ]);
  expect(suites.output).toBe('');
  expect(suites.code).toBe(0);
  expect(fixtures.output).toBe('');
  expect(fixtures.code).toBe(0);
}, 120_000);
