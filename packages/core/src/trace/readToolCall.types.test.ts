import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';

/**
 * Type test (issue 27): the custom-evaluator example of the README and evaluations.md, and content
 * blocks narrowed on `type`, type-check under strict against the built `sf-m3` entry (index.d.ts →
 * @sf-m3/core's dist; run `npm run build` first). `// @ts-expect-error` lines fail it when unused.
 */
const FIXTURE = path.join(__dirname, '__fixtures__', 'types', 'tsconfig.json');
const TSC = require.resolve('typescript/bin/tsc');

function typeCheck(tsconfig: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [TSC, '--noEmit', '-p', tsconfig], (error, stdout, stderr) => {
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, output: `${stdout}${stderr}` });
    });
  });
}

test('the custom-evaluator example and content-block narrowing type-check against sf-m3', async () => {
  const { code, output } = await typeCheck(FIXTURE);
  expect(output).toBe('');
  expect(code).toBe(0);
}, 120_000);

test('the README and evaluations.md show the example exactly as the fixture type-checks it', () => {
  const fixture = readFileSync(path.join(__dirname, '__fixtures__', 'types', 'customEvaluator.ts'), 'utf8');
  const example = fixture.slice(
    fixture.indexOf('// --- example start\n') + '// --- example start\n'.length,
    fixture.indexOf('// --- example end'),
  );
  expect(example).toContain('readToolCall(call)');
  const root = path.join(__dirname, '..', '..', '..', '..');
  for (const doc of ['README.md', 'packages/core/docs/evaluations.md']) {
    expect({ doc, hasExample: readFileSync(path.join(root, doc), 'utf8').includes(example) }).toEqual({
      doc,
      hasExample: true,
    });
  }
});
