// End-to-end: the verdict `m3 test` prints and its exit status always agree, including when Jest
// fails for a reason that is not a failed test, or never reaches the preset at all.
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureBuilt, printedRunId, readFeedback, removeFixture, repoRoot, runM3 } from './cli.testkit';

jest.setTimeout(180_000);

const presetPath = JSON.stringify(join(repoRoot, 'jest-preset.js'));

const PASSING_TEST = `
describe.m3('verdicts', () => {
  test('passes', () => {
    expect(1 + 1).toBe(2);
  });
});
`;

/** Writes a small project (file name → text) into a fresh temp folder. */
function project(files: Record<string, string>): string {
  const folder = mkdtempSync(join(tmpdir(), 'm3-e2e-verdict-'));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(folder, name, '..'), { recursive: true });
    writeFileSync(join(folder, name), text);
  }
  return folder;
}

const folders: string[] = [];
function track(folder: string): string {
  folders.push(folder);
  return folder;
}

beforeAll(() => ensureBuilt());
afterAll(() => folders.forEach(removeFixture));

describe('m3 test verdict and exit status agree', () => {
  test('every test passed but Jest exited 1 (a coverage threshold): verdict failed, exit 1, feedback failed', () => {
    const folder = track(
      project({
        'jest.config.js': `module.exports = { preset: ${presetPath}, rootDir: __dirname,
          collectCoverage: true, coverageReporters: ['text-summary'],
          collectCoverageFrom: ['lib/**/*.js'], coverageThreshold: { global: { lines: 100 } } };`,
        'lib/half.js': 'module.exports = (x) => {\n  if (x) return 1;\n  return 2;\n};\n',
        'tests/half.test.js': `const half = require('../lib/half');\n${PASSING_TEST.replace(
          'expect(1 + 1).toBe(2);',
          'expect(half(true)).toBe(1);',
        )}`,
      }),
    );
    const run = runM3(['test'], folder);
    expect(run.stderr).toContain('does not meet "global" threshold');
    expect(run.stdout).toContain('attempts    1 passed, 0 failed, 0 skipped, 0 todo');
    expect(run.stdout).toMatch(/verdict {5}failed: Jest exited with status 1/);
    expect(run.status).toBe(1);
    const feedback = readFeedback(folder, printedRunId(run.stdout));
    expect(feedback.summary).toMatchObject({ verdict: 'failed', jestExit: { code: 1, signal: null } });
  });

  test('Jest failed before the preset ran: verdict failed and exit 1, and --json keeps stdout one JSON document', () => {
    const folder = track(
      project({
        'jest.config.js': `throw new Error('this config is broken');`,
        'tests/a.test.js': PASSING_TEST,
      }),
    );
    const text = runM3(['test'], folder);
    expect(text.stderr).toContain('this config is broken');
    expect(text.stderr).toMatch(/m3 test: Jest exited with status 1 without recording run run-[0-9a-f]{32}/);
    expect(text.stdout).toBe('verdict     failed: Jest exited with status 1 before the run was recorded\n');
    expect(text.status).toBe(1);

    const json = runM3(['test', '--json'], folder);
    expect(json.status).toBe(1);
    expect(JSON.parse(json.stdout)).toEqual({
      runId: expect.stringMatching(/^run-[0-9a-f]{32}$/),
      verdict: 'failed',
      reasons: ['Jest exited with status 1 before the run was recorded'],
      jestExit: { code: 1, signal: null },
    });
  });

  test('a config without the preset: Jest passes but nothing is recorded, a configuration error (exit 2), never "passed"', () => {
    const folder = track(
      project({
        'jest.config.js': 'module.exports = { rootDir: __dirname };',
        'tests/plain.test.js': "test('plain', () => expect(1).toBe(1));\n",
      }),
    );
    const run = runM3(['test'], folder);
    expect(run.stderr).toContain("Check that your Jest config uses preset 'sf-m3'");
    expect(run.stdout).not.toContain('verdict     passed');
    expect(run.status).toBe(2);
    expect(existsSync(join(folder, '.m3', 'reports'))).toBe(false);
  });
});
