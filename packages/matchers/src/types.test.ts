import { execFile } from 'node:child_process';
import * as path from 'node:path';

/**
 * Type test: the matcher declarations compile for `@types/jest` globals and for `@jest/globals`
 * imports, and wrong arguments are rejected (`// @ts-expect-error` lines in the fixtures fail the
 * compile if they stop being errors).
 */
const FIXTURES = path.join(__dirname, '__fixtures__', 'types');
const TSC = require.resolve('typescript/bin/tsc');

function typeCheck(tsconfig: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [TSC, '--noEmit', '-p', path.join(FIXTURES, tsconfig)], (error, stdout, stderr) => {
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, output: `${stdout}${stderr}` });
    });
  });
}

describe('matcher type declarations', () => {
  test('merge into @types/jest globals and into @jest/globals expect', async () => {
    const [globals, imported] = await Promise.all([
      typeCheck('tsconfig.globals.json'),
      typeCheck('tsconfig.jest-globals.json'),
    ]);
    expect(globals.output).toBe('');
    expect(globals.code).toBe(0);
    expect(imported.output).toBe('');
    expect(imported.code).toBe(0);
  }, 120_000);
});
