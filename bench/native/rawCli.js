// What the raw native CLI drivers of the bench share: a 0700 temp root with home, config and
// workspace folders; the allowlisted environment the harnesses give a CLI; the CLI in its own
// process group, reaped whole; NDJSON lines; the example server the CLI connects to directly (no
// capture proxy); and the built core modules whose config builders the drivers use, so the raw
// side runs a CLI with the very arguments and config files its harness writes.
'use strict';

const { spawn } = require('node:child_process');
const { mkdirSync, mkdtempSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { delimiter, dirname, join } = require('node:path');

const ROOT = join(__dirname, '..', '..');

/** A module of the built core (`packages/core/dist/<path>`), e.g. a harness's config builder. */
function coreModule(path) {
  return require(join(ROOT, 'packages', 'core', 'dist', path));
}

/** The example server as a native CLI gets it without the kit: a stdio command, no proxy. */
function exampleServer() {
  const { exampleServerBin } = require(join(ROOT, 'examples', 'servers', 'dist'));
  return { name: 'example', command: process.execPath, args: [exampleServerBin], env: [] };
}

/** `{ root, home, configDir, workspace }` under a fresh 0700 temp folder. */
function makeDirs(kind) {
  const root = mkdtempSync(join(tmpdir(), `m3-bench-raw-${kind.replace('_', '-')}-`));
  const dirs = { root, home: join(root, 'home'), configDir: join(root, 'config'), workspace: join(root, 'workspace') };
  for (const dir of [dirs.home, dirs.configDir, dirs.workspace]) mkdirSync(dir, { recursive: true, mode: 0o700 });
  return dirs;
}

/** The environment the native harnesses allow (PATH with Node's folder, HOME, XDG_*, locale), plus `extra`. */
function cliEnv(dirs, extra) {
  return {
    PATH: [dirname(process.execPath), process.env.PATH ?? ''].join(delimiter),
    HOME: dirs.home,
    XDG_CONFIG_HOME: join(dirs.home, '.config'),
    XDG_DATA_HOME: join(dirs.home, '.local', 'share'),
    XDG_STATE_HOME: join(dirs.home, '.local', 'state'),
    XDG_CACHE_HOME: join(dirs.home, '.cache'),
    LANG: 'C.UTF-8',
    TZ: 'UTC',
    NO_COLOR: '1',
    ...extra,
  };
}

/** Starts the CLI in its own process group in the workspace; `stop()` reaps the group and removes the root. */
function startCli(executable, args, env, dirs) {
  const child = spawn(executable, args, { cwd: dirs.workspace, env, detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk) => {
    if (stderr.length < 16 * 1024) stderr += chunk;
  });
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  child.once('error', () => {});
  const signalGroup = (signal) => {
    try {
      process.kill(-child.pid, signal);
    } catch {
      // the group is gone
    }
  };
  const stop = async () => {
    child.stdin.end();
    signalGroup('SIGTERM');
    const timer = setTimeout(() => signalGroup('SIGKILL'), 1000);
    await exited;
    clearTimeout(timer);
    signalGroup('SIGKILL'); // descendants that outlived the leader
    rmSync(dirs.root, { recursive: true, force: true });
  };
  return { child, exited, stop, stderr: () => stderr };
}

/** Calls `onFrame(object)` for every JSON line on `stream` (other lines ignored). */
function readLines(stream, onFrame) {
  let buffered = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk) => {
    buffered += chunk;
    let newline;
    while ((newline = buffered.indexOf('\n')) >= 0) {
      const line = buffered.slice(0, newline).trim();
      buffered = buffered.slice(newline + 1);
      if (line.startsWith('{')) {
        try {
          onFrame(JSON.parse(line));
        } catch {
          // not JSON after all: a log line
        }
      }
    }
  });
}

/** Writes one NDJSON line. */
function writeLine(stream, value) {
  stream.write(`${JSON.stringify(value)}\n`);
}

/** Resolves the first value `waitFor` is given, rejects when the CLI exits first or after `ms`. */
function untilFrame(cli, what, ms, register) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${what} within ${ms} ms; stderr: ${cli.stderr()}`)), ms);
    cli.exited.then((exit) => {
      clearTimeout(timer);
      reject(new Error(`the CLI exited (${JSON.stringify(exit)}) before ${what}; stderr: ${cli.stderr()}`));
    });
    register((value) => {
      clearTimeout(timer);
      resolve(value);
    });
  });
}

module.exports = { ROOT, coreModule, exampleServer, makeDirs, cliEnv, startCli, readLines, writeLine, untilFrame };
