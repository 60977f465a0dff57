// Installs one pinned native agent CLI into its own folder of the cache (so one failing or being
// re-pinned never reinstalls the others), times the install, measures the folder and asks the CLI
// for its version in a throwaway home with auto-update and telemetry off. Used by run.js.
'use strict';

const { spawn, spawnSync } = require('node:child_process');
const { lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync, existsSync, writeFileSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { dirname, join } = require('node:path');
const { performance } = require('node:perf_hooks');
const { NATIVE_AGENTS, nativeExecutable, nativeInstallDir } = require('./nativeAgents');

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const VERSION_TIMEOUT_MS = 30_000;

/** Apparent size in bytes of everything under `path` (symlinks counted as links, not followed). */
function folderBytes(path) {
  const stat = lstatSync(path);
  if (!stat.isDirectory()) return stat.size;
  let total = 0;
  for (const entry of readdirSync(path)) total += folderBytes(join(path, entry));
  return total;
}

/** Switches that keep a `--version` call from updating, phoning home or reading the user's config. */
function quietEnv(home) {
  return {
    PATH: `${dirname(process.execPath)}${process.platform === 'win32' ? ';' : ':'}${process.env.PATH ?? ''}`,
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_DATA_HOME: join(home, '.local', 'share'),
    XDG_STATE_HOME: join(home, '.local', 'state'),
    XDG_CACHE_HOME: join(home, '.cache'),
    CODEX_HOME: join(home, '.codex'),
    CLAUDE_CONFIG_DIR: join(home, '.claude'),
    PI_CODING_AGENT_DIR: join(home, '.pi'),
    DISABLE_AUTOUPDATER: '1',
    DISABLE_TELEMETRY: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    OPENCODE_DISABLE_AUTOUPDATE: '1',
    OPENCODE_DISABLE_MODELS_FETCH: '1',
    PI_OFFLINE: '1',
    PI_SKIP_VERSION_CHECK: '1',
    PI_TELEMETRY: '0',
    NO_COLOR: '1',
  };
}

/**
 * `<executable> --version` in its own process group and a temporary home (removed afterwards), the
 * whole group killed when it is done or after 30 s. Resolves the first line that names a version.
 */
function cliVersion(executable) {
  const home = mkdtempSync(join(tmpdir(), 'sf-m3-native-version-'));
  return new Promise((resolve) => {
    const child = spawn(executable, ['--version'], {
      cwd: home,
      env: quietEnv(home),
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const collect = (chunk) => {
      if (output.length < 64 * 1024) output += chunk;
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    const killGroup = () => {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // the group is gone already
      }
    };
    const timer = setTimeout(killGroup, VERSION_TIMEOUT_MS);
    const done = (version) => {
      clearTimeout(timer);
      killGroup();
      rmSync(home, { recursive: true, force: true });
      resolve(version);
    };
    child.once('error', (error) => done(`(--version failed: ${error.message})`));
    child.once('close', (code, signal) => {
      const line = output.split('\n').find((l) => /\d+\.\d+\.\d+/.test(l));
      done(line?.trim() ?? `(--version exited ${code ?? signal} without a version)`);
    });
  });
}

/**
 * Makes sure the kind's pinned CLI is in `<cache>/<kind folder>`: a no-op check when it is, else
 * `npm install --ignore-scripts <package>@<version>` there. Returns what happened, with the install
 * time (null when nothing was installed), the folder's size and the CLI's own `--version`.
 */
async function ensureNativeAgent(kind, cache, log = (line) => process.stdout.write(`${line}\n`)) {
  const { package: name, version } = NATIVE_AGENTS[kind];
  const dir = nativeInstallDir(kind, cache);
  let seconds = null;
  if (nativeExecutable(kind, cache) === null) {
    mkdirSync(dir, { recursive: true });
    if (!existsSync(join(dir, 'package.json'))) {
      writeFileSync(join(dir, 'package.json'), `${JSON.stringify({ name: `sf-m3-native-${kind}`, private: true })}\n`);
    }
    // Install scripts stay off: Claude Code and Pi are JavaScript, Codex's launcher finds its platform
    // package itself, and OpenCode's binary is run from its platform package (see nativeAgents.js).
    const args = ['install', '--prefix', dir, '--no-audit', '--no-fund', '--ignore-scripts', '--save-exact'];
    log(`$ ${npm} ${[...args, `${name}@${version}`].join(' ')}`);
    const started = performance.now();
    const result = spawnSync(npm, [...args, `${name}@${version}`], { stdio: 'inherit' });
    seconds = (performance.now() - started) / 1000;
    if (result.error || result.status !== 0) {
      return { kind, status: 'failed', seconds, bytes: null, version: null, executable: null, dir };
    }
  }
  const executable = nativeExecutable(kind, cache);
  if (executable === null) {
    return { kind, status: 'failed', seconds, bytes: folderBytes(dir), version: null, executable: null, dir };
  }
  return {
    kind,
    status: seconds === null ? 'cached' : 'installed',
    seconds,
    bytes: folderBytes(dir),
    version: await cliVersion(executable),
    executable,
    dir,
  };
}

/** The install table run.js prints (and docs/native-harnesses.md records). */
function formatInstallTable(rows) {
  const lines = ['kind         package                               status      install s   size MiB  --version'];
  for (const row of rows) {
    const { package: name, version } = NATIVE_AGENTS[row.kind];
    lines.push(
      [
        row.kind.padEnd(12),
        `${name}@${version}`.padEnd(37),
        row.status.padEnd(11),
        (row.seconds === null ? '-' : row.seconds.toFixed(1)).padStart(9),
        (row.bytes === null ? '-' : (row.bytes / 2 ** 20).toFixed(0)).padStart(10),
        ` ${row.version ?? '-'}`,
      ].join(' '),
    );
  }
  return lines.join('\n');
}

module.exports = { ensureNativeAgent, formatInstallTable, folderBytes, cliVersion };
