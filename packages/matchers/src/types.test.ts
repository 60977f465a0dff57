import { execFile } from 'node:child_process';
import * as path from 'node:path';

/**
 * Type test: the matcher declarations compile for `@types/jest` globals and for `@jest/globals`
 * imports, and wrong arguments are rejected (`// @ts-expect-error` lines in the fixtures fail the
 * compile if they stop being errors). The fixtures' tsconfigs reference the matchers and core
 * projects, so the check reads their built declarations (dist/*.d.ts, what a user's compiler
 * sees; `tsc -b` builds them before Jest) instead of re-inferring their sources.
 */
const FIXTURES = path.join(__dirname, '__fixtures__', 'types');
/**
 * Type-checks several projects in one process (shared parsing), as `tsc --noEmit -p` would each, but
 * with `--skip-built-by`: the package sources they import (which `tsc -b` builds and type-checks)
 * get only a syntax check here.
 */
/** The repository's build tsconfig (`tsc -b`): what it compiles is type-checked there. */
const BUILD_TSCONFIG = path.join(__dirname, '..', '..', '..', 'tsconfig.json');
const TYPE_CHECK_PROJECTS = path.join(__dirname, '..', '..', '..', 'scripts', 'type-check-projects.js');

/** One project's result: tsc's exit code and diagnostic text. */
interface TypeCheck {
  tsconfig: string;
  code: number;
  output: string;
}

function typeCheck(tsconfigs: string[]): Promise<TypeCheck[]> {
  return new Promise((resolve, reject) => {
    const paths = tsconfigs.map((tsconfig) => path.join(FIXTURES, tsconfig));
    execFile(
      process.execPath,
      [TYPE_CHECK_PROJECTS, '--skip-built-by', BUILD_TSCONFIG, ...paths],
      (error, stdout, stderr) => {
        if (error) reject(new Error(`${TYPE_CHECK_PROJECTS} failed: ${error.message}\n${stdout}${stderr}`));
        else resolve(JSON.parse(stdout) as TypeCheck[]);
      },
    );
  });
}

describe('matcher type declarations', () => {
  test('merge into @types/jest globals and into @jest/globals expect', async () => {
    const [globals, imported] = await typeCheck(['tsconfig.globals.json', 'tsconfig.jest-globals.json']);
    expect([globals!.tsconfig, imported!.tsconfig]).toEqual([
      path.join(FIXTURES, 'tsconfig.globals.json'),
      path.join(FIXTURES, 'tsconfig.jest-globals.json'),
    ]);
    expect(globals!.output).toBe('');
    expect(globals!.code).toBe(0);
    expect(imported!.output).toBe('');
    expect(imported!.code).toBe(0);
  }, 120_000);
});
