#!/usr/bin/env node
// `npm run e2e:real-agents`: installs the real agents into caches outside the repository (each
// reused when its pinned version is there), builds the repository, then runs this folder's Jest
// suite and the native math matrix, offline against loopback fake models. Opt-in: not part of
// `npm test` or CI. Targets (default all, `--only a,b` for a subset):
//   acp          Gemini CLI and Claude Code ACP through the acp harness (realAgents.test.js)
//   claude_code, codex, opencode, pi   each native CLI through its native harness (<kind>.test.js)
//   math         the examples' math matrix through `m3 test --harness opencode=… --harness codex=…`
//   shipping     issue 12's shipping suite on all four native CLIs through `m3 test --harness …` ×4
// `--no-build` skips `npm run build`; other arguments go to Jest (e.g. `-- -t 'two turns'`).
'use strict';

const { spawnSync } = require('node:child_process');
const { existsSync, mkdirSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');
const { cacheDir, missingPackages } = require('./realAgents');
const { nativeCacheDir, nativeExecutable } = require('./nativeAgents');
const { ensureNativeAgent, formatInstallTable } = require('./nativeInstall');
const { parseRunArgs, kindsToInstall, testFilesOf } = require('./runTargets');

const repo = join(__dirname, '..', '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

function run(command, args, options = {}) {
  console.log(`\n$ ${[command, ...args].join(' ')}`);
  const result = spawnSync(command, args, { stdio: 'inherit', ...options });
  if (result.error) throw result.error;
  if (result.status !== 0) {
    console.error(`e2e:real-agents: '${command} ${args[0] ?? ''}' failed (exit ${result.status ?? result.signal})`);
    process.exit(result.status ?? 1);
  }
}

function outsideRepo(cache, variable) {
  if (cache.startsWith(`${repo}/`) || cache === repo) {
    console.error(`e2e:real-agents: the cache ${cache} is inside the repository; set ${variable} elsewhere`);
    process.exit(2);
  }
  mkdirSync(cache, { recursive: true });
}

/** Gemini CLI and Claude Code ACP, in one shared folder (as before the native harnesses). */
function installAcpAgents(cache) {
  outsideRepo(cache, 'M3_REAL_AGENTS_CACHE');
  if (!existsSync(join(cache, 'package.json'))) {
    writeFileSync(
      join(cache, 'package.json'),
      `${JSON.stringify({ name: 'sf-m3-real-agents', private: true }, null, 2)}\n`,
    );
  }
  const missing = missingPackages(cache);
  if (missing.length > 0) {
    // Install scripts are skipped: both agents are plain JavaScript (native extras are optional).
    run(npm, ['install', '--prefix', cache, '--no-audit', '--no-fund', '--ignore-scripts', ...missing]);
  } else {
    console.log(`e2e:real-agents: acp agents already installed in ${cache}`);
  }
}

/** Each native CLI in its own folder; prints the install table. Exits when one failed. */
async function installNativeAgents(kinds, cache) {
  outsideRepo(cache, 'M3_NATIVE_AGENTS_CACHE');
  const rows = [];
  for (const kind of kinds) rows.push(await ensureNativeAgent(kind, cache));
  console.log(`\nnative agents in ${cache}\n${formatInstallTable(rows)}`);
  const failed = rows.filter((row) => row.status === 'failed');
  if (failed.length > 0) {
    console.error(`e2e:real-agents: could not install ${failed.map((row) => row.kind).join(', ')} (see npm's output)`);
    process.exit(1);
  }
}

/** `M3_<KIND>_EXECUTABLE` for every installed kind the caller has not set (the test files read them). */
function executableEnv(cache) {
  const env = {};
  for (const kind of ['claude_code', 'codex', 'opencode', 'pi']) {
    const variable = `M3_${kind.toUpperCase()}_EXECUTABLE`;
    const executable = nativeExecutable(kind, cache);
    if (!process.env[variable] && executable !== null) env[variable] = executable;
  }
  return env;
}

async function main() {
  let options;
  try {
    options = parseRunArgs(process.argv.slice(2));
  } catch (error) {
    console.error(`e2e:real-agents: ${error.message}`);
    process.exit(2);
  }
  const { targets, build, jestArgs } = options;
  const acpCache = cacheDir();
  const nativeCache = nativeCacheDir();
  if (targets.includes('acp')) installAcpAgents(acpCache);
  const kinds = kindsToInstall(targets);
  if (kinds.length > 0) await installNativeAgents(kinds, nativeCache);
  if (build) run(npm, ['run', 'build'], { cwd: repo });
  const env = {
    ...process.env,
    M3_REAL_AGENTS_CACHE: acpCache,
    M3_NATIVE_AGENTS_CACHE: nativeCache,
    ...executableEnv(nativeCache),
  };

  const { files, untested } = testFilesOf(targets, (file) => existsSync(join(__dirname, file)));
  for (const kind of untested) console.log(`e2e:real-agents: no test file for ${kind} (yet), skipped`);
  if (files.length > 0) {
    run(
      process.execPath,
      [
        require.resolve('jest/bin/jest', { paths: [repo] }),
        '--config',
        join(__dirname, 'jest.config.js'),
        ...jestArgs,
        ...files.map((file) => `/${file.replace(/\./g, '\\.')}$`),
      ],
      { cwd: repo, env },
    );
  }
  if (targets.includes('math')) {
    const { runNativeMathMatrix } = require('./nativeMathMatrix');
    const ok = await runNativeMathMatrix({ repo, env, log: (line) => console.log(line) });
    if (!ok) process.exit(1);
  }
  if (targets.includes('shipping')) {
    const { runNativeShipping } = require('./nativeShipping');
    const ok = await runNativeShipping({ repo, env, log: (line) => console.log(line) });
    if (!ok) process.exit(1);
  }
}

main().catch((error) => {
  console.error(`e2e:real-agents: ${error && error.stack ? error.stack : String(error)}`);
  process.exit(1);
});
