#!/usr/bin/env node
// `npm test`: the build, then Jest, with eslint and prettier running alongside both at the lowest
// CPU priority, instead of taking about 50 s before Jest starts. The build goes first because the
// process and e2e tests load what it builds; it runs at normal priority, so Jest starts as soon as
// it is done. Nice 19 puts the lint checks below the build and the Jest workers, not below the
// tests' detached children: each of those is its own session, so its own scheduling group (Linux
// autogroups), and lint takes the workers' share while they wait on a child. Measured on the 2-core
// machine, lint ends 120-140 s into a fresh clone's run. Arguments go to Jest
// (`npm test -- e2e/cli.test.ts`).
//
// Each lint check's output is printed whole when it ends, under its name, so it never interleaves
// with Jest's. Exits 1 when the build, a lint check or Jest fails, after all have ended, naming each
// that failed; a failed build skips Jest.
'use strict';
const { spawn } = require('node:child_process');
const os = require('node:os');
const path = require('node:path');

const root = path.resolve(__dirname, '..');

/** A package's bin, run with this Node: no `npx` or `npm run` process in between. */
function bin(pkg, file) {
  return path.join(path.dirname(require.resolve(`${pkg}/package.json`, { paths: [root] })), file);
}

/** `npm run lint`, one check per command; they yield the CPU to the build and to Jest. */
const LINT_CHECKS = [
  { name: 'eslint', steps: [[bin('eslint', 'bin/eslint.js'), '.']] },
  { name: 'prettier', steps: [[bin('prettier', 'bin/prettier.cjs'), '--check', '.']] },
];

/** `npm run build`, step by step. */
const BUILD = {
  name: 'build',
  steps: [
    [bin('typescript', 'bin/tsc'), '-b'],
    [path.join(root, 'packages/core/scripts/bundle-acp-sdk.js')],
    [path.join(root, 'packages/cli/scripts/bundle-viewer.js')],
  ],
};

/** The lint checks' niceness: they run only when nothing at normal priority wants the core. */
const LOWEST_PRIORITY = 19;

/**
 * Lowers a child's priority. A system that refuses (none we know of: raising one's own niceness
 * needs no privilege) leaves it at normal priority, which costs time, not correctness.
 */
function lowerPriority(child) {
  try {
    os.setPriority(child.pid, LOWEST_PRIORITY);
  } catch {
    // Best effort, see above.
  }
}

/** Runs one step with its output captured; resolves with its exit code and everything it printed. */
function runStep(args, lowPriority) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    if (lowPriority && child.pid !== undefined) lowerPriority(child);
    const output = [];
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    child.on('error', (error) => resolve({ code: 1, output: `${error.message}\n` }));
    child.on('close', (code, signal) =>
      resolve({
        code: code ?? 1,
        output: Buffer.concat(output).toString('utf8') + (signal ? `killed by ${signal}\n` : ''),
      }),
    );
  });
}

/** Runs a check's steps in order, stopping at the first that fails, then prints its output whole. */
async function runCheck(check, lowPriority) {
  const started = Date.now();
  let output = '';
  let ok = true;
  for (const args of check.steps) {
    const step = await runStep(args, lowPriority);
    output += step.output;
    if (step.code !== 0) {
      ok = false;
      break;
    }
  }
  const seconds = ((Date.now() - started) / 1000).toFixed(0);
  process.stdout.write(`\n> ${check.name}: ${ok ? 'ok' : 'FAILED'} (${seconds} s)\n${output}`);
  return { name: check.name, ok };
}

/** Runs Jest on the terminal (its colours and progress stay), with this script's arguments. */
function runJest(args) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin('jest', 'bin/jest.js'), ...args], { cwd: root, stdio: 'inherit' });
    child.on('error', (error) => {
      process.stderr.write(`jest did not start: ${error.message}\n`);
      resolve({ name: 'jest', ok: false });
    });
    child.on('close', (code) => resolve({ name: 'jest', ok: code === 0 }));
  });
}

async function main() {
  const lints = LINT_CHECKS.map((check) => runCheck(check, true));
  const build = await runCheck(BUILD, false);
  const jest = build.ok ? [await runJest(process.argv.slice(2))] : [];
  const failed = [build, ...(await Promise.all(lints)), ...jest].filter((result) => !result.ok).map((r) => r.name);
  if (failed.length > 0) {
    const skipped = build.ok ? '' : '; jest did not run, as the tests load what the build makes';
    process.stderr.write(`\nnpm test: ${failed.join(', ')} failed (their output is above)${skipped}\n`);
    process.exitCode = 1;
  }
}

main();
