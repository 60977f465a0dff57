// The cost of the preset: 50 files x 20 trivial tests run by the real Jest under the sf-m3 preset
// with persistence on (every attempt saved to SQLite), versus the same tests under Jest's plain
// node environment. Prints wall times and their ratio; the target is at most 1.3x (issue 26).
'use strict';
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { median } = require('./stats');

const ROOT = path.resolve(__dirname, '..');
const JEST = require.resolve('jest/bin/jest', { paths: [ROOT] });
const FILES = 50;
const TESTS_PER_FILE = 20;
const ROUNDS = 2;

function writeFixture(folder, withPreset) {
  fs.mkdirSync(path.join(folder, 'tests'), { recursive: true });
  const config = withPreset
    ? {
        rootDir: folder,
        preset: path.join(ROOT, 'jest-preset.js'),
        testMatch: ['<rootDir>/tests/*.test.js'],
        cacheDirectory: path.join(folder, '.cache'),
      }
    : {
        rootDir: folder,
        testEnvironment: 'node',
        testMatch: ['<rootDir>/tests/*.test.js'],
        cacheDirectory: path.join(folder, '.cache'),
      };
  fs.writeFileSync(path.join(folder, 'jest.config.js'), `module.exports = ${JSON.stringify(config, null, 2)};\n`);
  const wrap = withPreset ? 'describe.m3' : 'describe';
  for (let file = 0; file < FILES; file += 1) {
    const tests = [];
    for (let index = 0; index < TESTS_PER_FILE; index += 1) {
      tests.push(`  test('case ${index}', () => { expect(${index} + 1).toBe(${index + 1}); });`);
    }
    const source = `${wrap}('bench suite ${file}', () => {\n${tests.join('\n')}\n});\n`;
    fs.writeFileSync(path.join(folder, 'tests', `file${file}.test.js`), source);
  }
}

function runJest(folder, env) {
  const started = process.hrtime.bigint();
  const result = spawnSync(process.execPath, [JEST, '--config', path.join(folder, 'jest.config.js'), '--silent'], {
    cwd: folder,
    env: { ...process.env, ...env },
    encoding: 'utf8',
  });
  const elapsedMs = Number(process.hrtime.bigint() - started) / 1e6;
  if (result.status !== 0) {
    throw new Error(`jest failed in ${folder} (exit ${result.status}):\n${result.stderr.slice(-4000)}`);
  }
  return elapsedMs;
}

async function run() {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'sf-m3-bench-preset-'));
  try {
    const plainFolder = path.join(base, 'plain');
    const presetFolder = path.join(base, 'preset');
    writeFixture(plainFolder, false);
    writeFixture(presetFolder, true);
    // Warm Jest's transform cache for both, so the rounds compare steady-state runs.
    runJest(plainFolder, {});
    runJest(presetFolder, { M3_RESULTS_DB: path.join(base, 'warm.sqlite') });
    const plain = [];
    const preset = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      plain.push(runJest(plainFolder, {}));
      preset.push(runJest(presetFolder, { M3_RESULTS_DB: path.join(base, `round${round}.sqlite`) }));
    }
    const plainMs = median(plain);
    const presetMs = median(preset);
    const tests = FILES * TESTS_PER_FILE;
    process.stdout.write(`${tests} tests in ${FILES} files, median of ${ROUNDS} runs each\n`);
    process.stdout.write(`plain node environment   ${plainMs.toFixed(0).padStart(7)} ms\n`);
    process.stdout.write(`sf-m3 preset, persisted  ${presetMs.toFixed(0).padStart(7)} ms\n`);
    process.stdout.write(
      `ratio preset/plain       ${(presetMs / plainMs).toFixed(2).padStart(7)}x (target <= 1.30x)\n`,
    );
  } finally {
    fs.rmSync(base, { recursive: true, force: true });
  }
}

module.exports = { run };
