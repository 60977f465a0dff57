#!/usr/bin/env node
// `npm run e2e:real-agents`: installs @google/gemini-cli and @zed-industries/claude-code-acp into a
// cache folder outside the repository (reused when the versions match), builds the repository, then
// runs this folder's Jest suite: the acp harness drives both real agents against the example server
// and a loopback fake model, offline. Opt-in: not part of `npm test` or CI. Extra arguments go to
// Jest (e.g. `npm run e2e:real-agents -- -t gemini`).
'use strict';

const { spawnSync } = require('node:child_process');
const { existsSync, mkdirSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');
const { cacheDir, missingPackages } = require('./realAgents');

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

const cache = cacheDir();
if (cache.startsWith(`${repo}/`) || cache === repo) {
  console.error(`e2e:real-agents: the cache ${cache} is inside the repository; set M3_REAL_AGENTS_CACHE elsewhere`);
  process.exit(2);
}
mkdirSync(cache, { recursive: true });
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
  console.log(`e2e:real-agents: agents already installed in ${cache}`);
}
run(npm, ['run', 'build'], { cwd: repo });
run(
  process.execPath,
  [
    require.resolve('jest/bin/jest', { paths: [repo] }),
    '--config',
    join(__dirname, 'jest.config.js'),
    ...process.argv.slice(2),
  ],
  {
    cwd: repo,
    env: { ...process.env, M3_REAL_AGENTS_CACHE: cache },
  },
);
