// Type test: the example suites (examples/tsconfig.json, against the built `sf-m3` types), the
// fixture agents' tests (examples/fixtures/tsconfig.json) and the project's own unit and e2e tests
// (tsconfig.test.json; package builds exclude *.test.ts) compile. `npm test` runs tests through
// esbuild (e2e/run/typescriptTransform.js), which only transpiles, and does not run the example suites at all,
// so without this a type error in any of them would pass `npm test` unnoticed. The package sources
// these projects reach (relative imports of unit tests, the fixtures' `paths` to core's sources) are
// type-checked by the build (`tsc -b`, before Jest in `npm test`): tsconfig.test.json and
// examples/fixtures/tsconfig.json reference those projects, so TypeScript reads their built
// declarations (dist/*.d.ts) in place of their sources instead of inferring every type again, and
// `--skip-built-by tsconfig.json` gives any built source still reached only a syntax check.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { ensureBuilt, repoRoot } from './cli.testkit';

/** Type-checks several projects in one process, as `tsc --noEmit -p` would each (shared parsing). */
const TYPE_CHECK_PROJECTS = join(repoRoot, 'scripts', 'type-check-projects.js');

/** One project's result: tsc's exit code and diagnostic text. */
interface TypeCheck {
  tsconfig: string;
  code: number;
  output: string;
}

function typeCheck(tsconfigs: string[]): Promise<TypeCheck[]> {
  return new Promise((resolve, reject) => {
    const paths = tsconfigs.map((tsconfig) => join(repoRoot, tsconfig));
    execFile(
      process.execPath,
      [TYPE_CHECK_PROJECTS, '--skip-built-by', join(repoRoot, 'tsconfig.json'), ...paths],
      { maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`${TYPE_CHECK_PROJECTS} failed: ${error.message}\n${stdout}${stderr}`));
        else resolve(JSON.parse(stdout) as TypeCheck[]);
      },
    );
  });
}

beforeAll(() => {
  ensureBuilt();
});

test('the example suites, the fixture agents’ tests and the unit tests type-check', async () => {
  const [suites, fixtures, tests] = await typeCheck([
    'examples/tsconfig.json',
    'examples/fixtures/tsconfig.json',
    'tsconfig.test.json',
  ]);
  expect([suites!.tsconfig, fixtures!.tsconfig, tests!.tsconfig]).toEqual([
    join(repoRoot, 'examples/tsconfig.json'),
    join(repoRoot, 'examples/fixtures/tsconfig.json'),
    join(repoRoot, 'tsconfig.test.json'),
  ]);
  expect(suites!.output).toBe('');
  expect(suites!.code).toBe(0);
  expect(fixtures!.output).toBe('');
  expect(fixtures!.code).toBe(0);
  expect(tests!.output).toBe('');
  expect(tests!.code).toBe(0);
}, 180_000);
