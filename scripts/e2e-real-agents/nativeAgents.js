// The four native agent CLIs the opt-in e2e run installs (contract §18), pinned, each in its own
// sub-folder of a cache outside the repository, and where each one's executable is inside it.
// Shared by run.js, the native harness test files (`<kind>.test.js`) and the native bench.
'use strict';

const { existsSync, readFileSync } = require('node:fs');
const { homedir } = require('node:os');
const { join, resolve } = require('node:path');

/**
 * Pinned packages per harness kind. `cli` is what the package ships (the version `--version` prints).
 * Claude Code comes from the Agent SDK, whose `cli.js` is Claude Code as plain JavaScript (Node 20);
 * the `@anthropic-ai/claude-code` package needs Node >= 22 or a native binary an install script fetches.
 */
const NATIVE_AGENTS = {
  claude_code: { package: '@anthropic-ai/claude-agent-sdk', version: '0.2.44', cli: 'Claude Code 2.1.44' },
  codex: { package: '@openai/codex', version: '0.171.0', cli: 'codex-cli 0.171.0' },
  opencode: { package: 'opencode-ai', version: '1.18.33', cli: 'opencode 1.18.33' },
  pi: { package: '@mariozechner/pi-coding-agent', version: '0.73.1', cli: 'pi 0.73.1' },
};

/** The kinds, in the order runs and tables list them. */
const NATIVE_KINDS = Object.keys(NATIVE_AGENTS);

/** `${M3_NATIVE_AGENTS_CACHE:-${XDG_CACHE_HOME:-~/.cache}/sf-m3/native-agents}`, outside the repository. */
function nativeCacheDir(env = process.env) {
  if (env.M3_NATIVE_AGENTS_CACHE) return resolve(env.M3_NATIVE_AGENTS_CACHE);
  const base = env.XDG_CACHE_HOME ? resolve(env.XDG_CACHE_HOME) : join(homedir(), '.cache');
  return join(base, 'sf-m3', 'native-agents');
}

function agentOf(kind) {
  const agent = NATIVE_AGENTS[kind];
  if (agent === undefined) {
    throw new Error(`unknown native harness kind "${kind}": use one of ${NATIVE_KINDS.join(', ')}`);
  }
  return agent;
}

/** The kind's own install folder: `<cache>/<package with @ and / as _>_<version>` (a re-pin is a new folder). */
function nativeInstallDir(kind, cache = nativeCacheDir()) {
  const { package: name, version } = agentOf(kind);
  return join(cache, `${name.replace(/[@/]/g, '_')}_${version}`);
}

function installedVersion(dir, name) {
  const manifest = join(dir, 'node_modules', ...name.split('/'), 'package.json');
  if (!existsSync(manifest)) return null;
  try {
    return JSON.parse(readFileSync(manifest, 'utf8')).version ?? null;
  } catch {
    return null;
  }
}

function supportsAvx2() {
  try {
    return /(^|\s)avx2(\s|$)/i.test(readFileSync('/proc/cpuinfo', 'utf8'));
  } catch {
    return false;
  }
}

function isMusl() {
  if (existsSync('/etc/alpine-release')) return true;
  // glibc's report names its runtime; musl has none.
  const report = process.report?.getReport?.();
  return report?.header?.glibcVersionRuntime === undefined && process.platform === 'linux';
}

/**
 * OpenCode's platform packages, best first, as its postinstall script orders them: the `-baseline`
 * builds are for x64 CPUs without AVX2, `-musl` for Alpine-like systems. npm installs every variant
 * that matches the OS and CPU; with `--ignore-scripts` the launcher `bin/opencode.exe` stays a stub, so
 * the run uses the first variant present.
 */
function opencodePlatformPackages(platform = process.platform, arch = process.arch) {
  const os = platform === 'win32' ? 'windows' : platform;
  const base = `opencode-${os}-${arch}`;
  if (arch !== 'x64') return platform === 'linux' && isMusl() ? [`${base}-musl`, base] : [base, `${base}-musl`];
  const baseline = !supportsAvx2();
  const glibc = baseline ? [`${base}-baseline`, base] : [base, `${base}-baseline`];
  if (platform !== 'linux') return glibc;
  const musl = baseline ? [`${base}-baseline-musl`, `${base}-musl`] : [`${base}-musl`, `${base}-baseline-musl`];
  return isMusl() ? [...musl, ...glibc] : [...glibc, ...musl];
}

/** Where the kind's executable would be in its install folder (whether or not it is there). */
function executableCandidates(kind, dir) {
  const modules = join(dir, 'node_modules');
  switch (kind) {
    case 'claude_code':
      return [join(modules, '@anthropic-ai', 'claude-agent-sdk', 'cli.js')];
    case 'codex':
      return [join(modules, '.bin', process.platform === 'win32' ? 'codex.cmd' : 'codex')];
    case 'opencode': {
      const binary = process.platform === 'win32' ? 'opencode.exe' : 'opencode';
      return opencodePlatformPackages().map((name) => join(modules, name, 'bin', binary));
    }
    case 'pi':
      return [join(modules, '.bin', process.platform === 'win32' ? 'pi.cmd' : 'pi')];
    default:
      return [];
  }
}

/**
 * The absolute path of the kind's CLI in the cache (a script with a `#!/usr/bin/env node` shebang or
 * a binary, runnable as the selection's `executable`), or `null` when the pinned version is not
 * installed there. The native harness test files fall back to `M3_<KIND>_EXECUTABLE`.
 */
function nativeExecutable(kind, cache = nativeCacheDir()) {
  const { package: name, version } = agentOf(kind);
  const dir = nativeInstallDir(kind, cache);
  if (installedVersion(dir, name) !== version) return null;
  return executableCandidates(kind, dir).find((path) => existsSync(path)) ?? null;
}

/** The kinds whose pinned CLI is not (fully) installed in the cache. */
function missingNativeAgents(kinds = NATIVE_KINDS, cache = nativeCacheDir()) {
  return kinds.filter((kind) => nativeExecutable(kind, cache) === null);
}

module.exports = {
  NATIVE_AGENTS,
  NATIVE_KINDS,
  nativeCacheDir,
  nativeInstallDir,
  nativeExecutable,
  missingNativeAgents,
  opencodePlatformPackages,
};
