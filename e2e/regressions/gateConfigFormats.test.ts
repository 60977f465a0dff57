// End-to-end: the gates of `testEnvironmentOptions.m3` hold in every Jest config format Jest reads,
// not only jest.config.js: an ES module jest.config.mjs, and a file named by `-- --config`.
// The suite is green; a gate on an evaluator the run never recorded fails it (exit 1).
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { copyFixture, ensureBuilt, printedRunId, readFeedback, removeFixture, runM3Async } from '../cli.testkit';

jest.setTimeout(240_000);

const mjsConfig = (minPassRate: Record<string, number>) => `// The cli-green project's config as an ES module.
import path from 'node:path';

export default {
  preset: path.join(process.env.SF_M3_ROOT, 'jest-preset.js'),
  rootDir: import.meta.dirname,
  testMatch: ['<rootDir>/tests/**/*.test.js'],
  testTimeout: 30000,
  testEnvironmentOptions: { m3: { minPassRate: ${JSON.stringify(minPassRate)} } },
};
`;

describe('gates from jest.config.mjs and --config', () => {
  let folder: string;
  beforeAll(() => {
    ensureBuilt();
    folder = copyFixture('cli-green');
    rmSync(join(folder, 'jest.config.js'));
    writeFileSync(join(folder, 'jest.config.mjs'), mjsConfig({ 'never.recorded.v1': 0.5 }));
  });
  afterAll(() => removeFixture(folder));

  test('a gate in jest.config.mjs fails a green run, named with its source', async () => {
    const run = await runM3Async(['test'], folder);
    expect(run.stdout).toContain('attempts    2 passed, 0 failed, 1 skipped, 1 todo');
    expect(run.stdout).toMatch(/✕ .*never\.recorded\.v1 recorded no evaluations in this run/);
    expect(run.status).toBe(1);
    const gates = readFeedback(folder, printedRunId(run.stdout)).gates;
    expect(gates).toEqual([expect.objectContaining({ evaluator: 'never.recorded.v1', source: 'jest config' })]);
  });

  test('-- --config FILE: the gates of the file Jest is told to use', async () => {
    writeFileSync(join(folder, 'ci.jest.config.mjs'), mjsConfig({ 'm3.expect.toHaveStructuredContent': 1 }));
    const run = await runM3Async(['test', '--', '--config', 'ci.jest.config.mjs'], folder);
    expect(run.stdout).toMatch(/✓ min pass rate m3\.expect\.toHaveStructuredContent ≥ 100\.0%/);
    expect(run.stdout).not.toContain('never.recorded.v1');
    expect(run.status).toBe(0);
  });
});
