// Type test: the example suites (examples/tsconfig.json, against the built `sf-m3` types), the
// fixture agents' tests (examples/fixtures/tsconfig.json) and the project's own unit and e2e tests
// (tsconfig.test.json; package builds exclude *.test.ts) compile. `npm test` runs tests through
// ts-jest with isolatedModules, which only transpiles, and does not run the example suites at all,
// so without this a type error in any of them would pass `npm test` unnoticed.
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

test('the example suites, the fixture agents’ tests and the unit tests type-check', async () => {
  const [suites, fixtures, tests] = await Promise.all([
    typeCheck('examples/tsconfig.json'),
    typeCheck('examples/fixtures/tsconfig.json'),
    typeCheck('tsconfig.test.json'),
  ]);
  expect(suites.output).toBe('');
  expect(suites.code).toBe(0);
  expect(fixtures.output).toBe('');
  expect(fixtures.code).toBe(0);
  expect(tests.output).toBe('');
  expect(tests.code).toBe(0);
}, 180_000);
