#!/usr/bin/env node
// `npm test`'s first half: what `npm run lint` and `npm run build` do, at the same time. Each of
// eslint, prettier and tsc uses one core, and the three in a row took about a minute of the
// 2-core machine's `npm test`; side by side they take the longest of them. Each command's output is
// printed whole when it ends, under its name, so the three never interleave. Exits 1 when any
// fails, after all have ended, naming each that failed.
'use strict';
const { spawn } = require('node:child_process');
const path = require('node:path');

const root = path.resolve(__dirname, '..');

/** A package's bin, run with this Node: no `npx` or `npm run` process in between. */
function bin(pkg, file) {
  return path.join(path.dirname(require.resolve(`${pkg}/package.json`, { paths: [root] })), file);
}

/** The checks, in `npm run lint` and `npm run build` order; a check's steps run one after another. */
const CHECKS = [
  { name: 'eslint', steps: [[bin('eslint', 'bin/eslint.js'), '.']] },
  { name: 'prettier', steps: [[bin('prettier', 'bin/prettier.cjs'), '--check', '.']] },
  {
    name: 'build',
    steps: [
      [bin('typescript', 'bin/tsc'), '-b'],
      [path.join(root, 'packages/core/scripts/bundle-acp-sdk.js')],
      [path.join(root, 'packages/cli/scripts/bundle-viewer.js')],
    ],
  },
];

/** Runs one step; resolves with its exit code and everything it printed. */
function runStep(args) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
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

/** Runs a check's steps in order, stopping at the first that fails. */
async function runCheck(check) {
  const started = Date.now();
  let output = '';
  for (const args of check.steps) {
    const step = await runStep(args);
    output += step.output;
    if (step.code !== 0) return { ...check, ok: false, output, seconds: (Date.now() - started) / 1000 };
  }
  return { ...check, ok: true, output, seconds: (Date.now() - started) / 1000 };
}

async function main() {
  const results = await Promise.all(
    CHECKS.map((check) =>
      runCheck(check).then((result) => {
        const status = result.ok ? 'ok' : 'FAILED';
        process.stdout.write(`\n> ${result.name}: ${status} (${result.seconds.toFixed(0)} s)\n${result.output}`);
        return result;
      }),
    ),
  );
  const failed = results.filter((result) => !result.ok).map((result) => result.name);
  if (failed.length > 0) {
    process.stderr.write(`\nlint-and-build: ${failed.join(', ')} failed (their output is above)\n`);
    process.exitCode = 1;
  }
}

main();
