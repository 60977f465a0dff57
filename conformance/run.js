#!/usr/bin/env node
// `npm run conformance`: installs @modelcontextprotocol/conformance (pinned) and a Node 22 binary
// from the npm registry into ~/.cache/sf-m3/conformance (see framework.js), builds the repository,
// then runs every client scenario the framework lists against conformance/adapter (the kit's
// public API only), a few at a time, and prints one row per scenario with the framework's own
// verdict. Exits 1 when any scenario fails, 2 when the run itself could not be set up.
//
//   npm run conformance                         every client scenario
//   npm run conformance -- --scenario sse-retry  only the named ones (repeatable; the table says so)
//   npm run conformance -- --no-build           skip `npm run build` (CI has just built)
//   M3_CONFORMANCE_JOBS=4                        scenarios run at once (default 4)
//   M3_CONFORMANCE_CACHE=DIR                     the cache folder (must be outside the repository)
'use strict';

const { spawnSync } = require('node:child_process');
const { existsSync, mkdtempSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join, relative } = require('node:path');
const { FRAMEWORK, NODE, cacheDir, install, listClientScenarios, runCli } = require('./framework');
const { formatTable, readChecks, readClientStderr, verdict } = require('./verdicts');

const repo = join(__dirname, '..');
const adapterMain = join(__dirname, 'adapter', 'dist', 'main.js');
const CLIENT_TIMEOUT_MS = 60_000;

function parseArgs(argv) {
  const options = { build: true, scenarios: [] };
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i];
    if (arg === '--no-build') options.build = false;
    else if (arg === '--scenario' && argv[i + 1] !== undefined) options.scenarios.push(argv[(i += 1)]);
    else if (arg.startsWith('--scenario=')) options.scenarios.push(arg.slice('--scenario='.length));
    else throw new Error(`unknown argument '${arg}': use --scenario NAME (repeatable) or --no-build`);
  }
  return options;
}

function jobs(env = process.env) {
  if (env.M3_CONFORMANCE_JOBS === undefined) return 4;
  const n = Number(env.M3_CONFORMANCE_JOBS);
  if (!Number.isInteger(n) || n < 1)
    throw new Error('M3_CONFORMANCE_JOBS must be a whole number of at least 1, e.g. 4');
  return n;
}

/** A shell word: the framework joins `--command` into a shell command line. */
const shellWord = (text) => `'${text.replace(/'/g, `'\\''`)}'`;

/** Runs one scenario through the framework's CLI and reads its verdict. */
async function runScenario(cache, scenario, outRoot) {
  const outDir = join(outRoot, scenario.replace(/[^A-Za-z0-9._-]/g, '_'));
  const command = `${shellWord(process.execPath)} ${shellWord(adapterMain)}`;
  const started = Date.now();
  const run = await runCli(
    cache,
    ['client', '--command', command, '--scenario', scenario, '--timeout', String(CLIENT_TIMEOUT_MS), '-o', outDir],
    // The framework enforces the client's timeout itself; this only ends a framework that hangs
    // (generous: on a loaded machine its own start-up takes tens of seconds).
    { timeoutMs: CLIENT_TIMEOUT_MS + 150_000 },
  );
  const result = verdict({ scenario, run, checks: readChecks(outDir), seconds: (Date.now() - started) / 1000 });
  return { ...result, clientStderr: result.passed ? '' : readClientStderr(outDir) };
}

/** Runs `items` through `worker`, `limit` at a time, keeping their order. */
async function pool(items, limit, worker) {
  const results = new Array(items.length);
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const index = next;
      next += 1;
      results[index] = await worker(items[index]);
    }
  });
  await Promise.all(lanes);
  return results;
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  const limit = jobs();
  const cache = cacheDir();
  if (cache === repo || cache.startsWith(`${repo}/`)) {
    throw new Error(`the cache ${cache} is inside the repository; set M3_CONFORMANCE_CACHE elsewhere`);
  }
  install(cache, console.log);
  if (options.build) {
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const built = spawnSync(npm, ['run', 'build', '--silent'], { cwd: repo, stdio: 'inherit' });
    if (built.status !== 0) throw new Error(`npm run build failed (exit ${built.status ?? built.signal})`);
  }
  if (!existsSync(adapterMain)) {
    throw new Error(`${relative(repo, adapterMain)} is missing: run npm run build first (or drop --no-build)`);
  }
  const listed = await listClientScenarios(cache);
  const unknown = options.scenarios.filter((name) => !listed.includes(name));
  if (unknown.length > 0) throw new Error(`the framework has no client scenario ${unknown.join(', ')}`);
  const selected = options.scenarios.length > 0 ? listed.filter((name) => options.scenarios.includes(name)) : listed;

  console.log(
    `conformance: ${FRAMEWORK.name}@${FRAMEWORK.version} on Node ${NODE.version}: ${selected.length} client scenarios, ${limit} at a time\n`,
  );
  const outRoot = mkdtempSync(join(tmpdir(), 'sf-m3-conformance-'));
  const cleanup = () => rmSync(outRoot, { recursive: true, force: true });
  process.once('SIGINT', () => {
    cleanup();
    process.exit(130);
  });
  let verdicts;
  try {
    verdicts = await pool(selected, limit, (scenario) => runScenario(cache, scenario, outRoot));
  } finally {
    cleanup();
  }
  console.log(formatTable(verdicts));
  if (selected.length < listed.length) {
    console.log(`(only the scenarios asked for: ${listed.length - selected.length} of ${listed.length} not run)`);
  }
  const failed = verdicts.filter((v) => !v.passed);
  for (const v of failed.filter((f) => f.clientStderr !== '')) {
    console.log(`\n${v.scenario}: the adapter's stderr ends with\n${v.clientStderr.replace(/^/gm, '  ')}`);
  }
  return failed.length === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(`conformance: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(2);
  },
);
