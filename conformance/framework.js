// The pinned conformance framework and the Node 22 it needs, installed from the npm registry into a
// cache outside the repository (reused while the versions match), and how to call its CLI.
'use strict';

const { spawn, spawnSync } = require('node:child_process');
const { existsSync, mkdirSync, readFileSync, writeFileSync } = require('node:fs');
const { homedir } = require('node:os');
const { join, resolve } = require('node:path');

/** The framework version the facts were established with. */
const FRAMEWORK = { name: '@modelcontextprotocol/conformance', version: '0.1.16' };

/** Node 22 as an npm package (`node-<platform>-<arch>` ships the official binary); the CLI needs >= 22. */
const NODE = { name: `node-${process.platform}-${process.arch}`, version: '22.23.5' };

/** `${M3_CONFORMANCE_CACHE:-${XDG_CACHE_HOME:-~/.cache}/sf-m3/conformance}`. */
function cacheDir(env = process.env) {
  if (env.M3_CONFORMANCE_CACHE) return resolve(env.M3_CONFORMANCE_CACHE);
  const base = env.XDG_CACHE_HOME ? resolve(env.XDG_CACHE_HOME) : join(homedir(), '.cache');
  return join(base, 'sf-m3', 'conformance');
}

/** Packages missing from the cache or installed at another version, as `name@version`. */
function missingPackages(cache) {
  return [FRAMEWORK, NODE]
    .filter(({ name, version }) => {
      const manifest = join(cache, 'node_modules', name, 'package.json');
      return !existsSync(manifest) || JSON.parse(readFileSync(manifest, 'utf8')).version !== version;
    })
    .map(({ name, version }) => `${name}@${version}`);
}

/**
 * Installs what is missing. Install scripts are skipped: the framework is plain JavaScript and the
 * Node package's binary is in its tarball. npm runs under the current Node, which is older than the
 * framework's `engines`; that is why the framework itself runs under the cached Node 22.
 */
function install(cache, log) {
  mkdirSync(cache, { recursive: true });
  const manifest = join(cache, 'package.json');
  if (!existsSync(manifest)) {
    writeFileSync(manifest, `${JSON.stringify({ name: 'sf-m3-conformance', private: true }, null, 2)}\n`);
  }
  const missing = missingPackages(cache);
  if (missing.length === 0) {
    log(`conformance: ${FRAMEWORK.name}@${FRAMEWORK.version} and Node ${NODE.version} already in ${cache}`);
    return;
  }
  log(`conformance: installing ${missing.join(' ')} into ${cache}`);
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const args = ['install', '--prefix', cache, '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error'];
  const result = spawnSync(npm, [...args, ...missing], { stdio: ['ignore', 'inherit', 'inherit'] });
  if (result.error) throw result.error;
  if (result.status !== 0) {
    throw new Error(`npm install of ${missing.join(' ')} failed (exit ${result.status ?? result.signal})`);
  }
  const still = missingPackages(cache);
  if (still.length > 0) throw new Error(`npm install left ${still.join(' ')} missing from ${cache}`);
}

/** The cached Node 22 binary and the framework's CLI entry. */
function entries(cache) {
  const bin = process.platform === 'win32' ? 'node.exe' : join('bin', 'node');
  return {
    node: join(cache, 'node_modules', NODE.name, bin),
    cli: join(cache, 'node_modules', ...FRAMEWORK.name.split('/'), 'dist', 'index.js'),
  };
}

/** Runs the framework's CLI under Node 22; resolves with its exit status and output (never rejects on exit). */
function runCli(cache, args, { timeoutMs = 120_000, env = process.env } = {}) {
  const { node, cli } = entries(cache);
  return new Promise((resolvePromise, reject) => {
    const child = spawn(node, [cli, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (status, signal) => {
      clearTimeout(timer);
      resolvePromise({ status, signal, stdout, stderr, timedOut });
    });
  });
}

/** The client scenarios the framework lists (`conformance list --client`), in its order. */
async function listClientScenarios(cache) {
  const result = await runCli(cache, ['list', '--client'], { timeoutMs: 60_000 });
  if (result.status !== 0) {
    throw new Error(
      `conformance list --client failed (exit ${result.status ?? result.signal}): ${result.stderr.trim()}`,
    );
  }
  return parseScenarioList(result.stdout);
}

/** Parses `  - name [versions]` lines under the "Client scenarios" heading. */
function parseScenarioList(stdout) {
  const names = [];
  let inClient = false;
  for (const line of stdout.split('\n')) {
    if (/^Client scenarios/.test(line)) inClient = true;
    else if (/^\S/.test(line)) inClient = false;
    else if (inClient) {
      const match = /^\s+-\s+(\S+)/.exec(line);
      if (match) names.push(match[1]);
    }
  }
  if (names.length === 0) throw new Error(`conformance list --client listed no client scenarios:\n${stdout}`);
  return names;
}

module.exports = {
  FRAMEWORK,
  NODE,
  cacheDir,
  missingPackages,
  install,
  entries,
  runCli,
  listClientScenarios,
  parseScenarioList,
};
