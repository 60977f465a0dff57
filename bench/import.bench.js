// The cost of `require('sf-m3')`: the import time and resident memory of a bare require of the
// root package and of `@sf-m3/core`, each in a fresh `node` process, against the MCP SDK client
// plus its stdio transport (`@modelcontextprotocol/sdk/client/index.js` + `client/stdio.js`), the
// least a test of an MCP server loads. Jest evaluates modules again in every test file, so every
// file pays this. Runs the processes interleaved, several rounds, and prints the medians and the
// ratios against the targets (time <= 1.3x, RSS <= 1.2x). Needs the built dist. M3_BENCH_ROUNDS
// overrides the round count.
'use strict';
const { execFileSync } = require('node:child_process');
const path = require('node:path');
const { median } = require('./stats');

const ROOT = path.resolve(__dirname, '..');
const ROUNDS = Number(process.env.M3_BENCH_ROUNDS || 9);
const TIME_TARGET = 1.3;
const RSS_TARGET = 1.2;

/** What each child requires, resolved from the repository root as an installed project would. */
const SUBJECTS = [
  { label: 'node alone (reference)', modules: [] },
  {
    label: 'SDK client + stdio transport',
    modules: ['@modelcontextprotocol/sdk/client/index.js', '@modelcontextprotocol/sdk/client/stdio.js'],
  },
  { label: "require('sf-m3')", modules: [ROOT] },
  { label: "require('@sf-m3/core')", modules: ['@sf-m3/core'] },
];

/** The child: times the requires with a monotonic clock and reports the RSS after them. */
function childScript(modules) {
  return [
    `const started = process.hrtime.bigint();`,
    ...modules.map((name) => `require(${JSON.stringify(name)});`),
    `const ms = Number(process.hrtime.bigint() - started) / 1e6;`,
    `process.stdout.write(JSON.stringify({ ms, rss: process.memoryUsage().rss }));`,
  ].join('\n');
}

/** One fresh process requiring `modules`: its import time (ms) and RSS (bytes). */
function measureOnce(modules) {
  const stdout = execFileSync(process.execPath, ['-e', childScript(modules)], { cwd: ROOT, encoding: 'utf8' });
  return JSON.parse(stdout);
}

function ratioLine(label, value, target) {
  const verdict = value <= target ? 'within' : 'OVER';
  return `${label.padEnd(38)} ${value.toFixed(2).padStart(6)}x (target <= ${target.toFixed(2)}x, ${verdict})\n`;
}

async function run() {
  const samples = SUBJECTS.map(() => ({ ms: [], rss: [] }));
  // Warm the file system cache for every subject before timing.
  for (const subject of SUBJECTS) measureOnce(subject.modules);
  for (let round = 0; round < ROUNDS; round += 1) {
    // Rotate the order each round, so no subject always runs right after another.
    for (let offset = 0; offset < SUBJECTS.length; offset += 1) {
      const index = (round + offset) % SUBJECTS.length;
      const { ms, rss } = measureOnce(SUBJECTS[index].modules);
      samples[index].ms.push(ms);
      samples[index].rss.push(rss);
    }
  }
  const medians = samples.map(({ ms, rss }) => ({ ms: median(ms), rssMb: median(rss) / 1024 / 1024 }));
  process.stdout.write(`fresh node processes, median of ${ROUNDS} rounds each\n`);
  SUBJECTS.forEach((subject, index) => {
    const { ms, rssMb } = medians[index];
    process.stdout.write(
      `${subject.label.padEnd(32)} import ${ms.toFixed(0).padStart(5)} ms   RSS ${rssMb.toFixed(1).padStart(6)} MB\n`,
    );
  });
  const sdk = medians[1];
  for (const index of [2, 3]) {
    const { label } = SUBJECTS[index];
    process.stdout.write(ratioLine(`${label} time / SDK`, medians[index].ms / sdk.ms, TIME_TARGET));
    process.stdout.write(ratioLine(`${label} RSS / SDK`, medians[index].rssMb / sdk.rssMb, RSS_TARGET));
  }
}

module.exports = { run };
