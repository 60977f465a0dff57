// The installer's bookkeeping, against throwaway cache layouts (no npm, no CLI): which folder each
// kind lives in, when the pinned version counts as installed, which OpenCode platform binary is
// run, and how `--only` picks targets. Runs first in the opt-in suite (cheap, offline).
'use strict';

const { mkdirSync, mkdtempSync, rmSync, writeFileSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const {
  NATIVE_AGENTS,
  NATIVE_KINDS,
  nativeCacheDir,
  nativeExecutable,
  nativeInstallDir,
  missingNativeAgents,
  opencodePlatformPackages,
} = require('./nativeAgents');
const { parseRunArgs, kindsToInstall, testFilesOf } = require('./runTargets');

let cache;
beforeEach(() => {
  cache = mkdtempSync(join(tmpdir(), 'sf-m3-native-layout-'));
});
afterEach(() => rmSync(cache, { recursive: true, force: true }));

/** Writes `<dir>/node_modules/<name>/package.json` at `version` and the given files. */
function fakeInstall(kind, version, files) {
  const dir = nativeInstallDir(kind, cache);
  const name = NATIVE_AGENTS[kind].package;
  mkdirSync(join(dir, 'node_modules', name), { recursive: true });
  writeFileSync(join(dir, 'node_modules', name, 'package.json'), JSON.stringify({ name, version }));
  for (const file of files) {
    mkdirSync(join(dir, 'node_modules', file, '..'), { recursive: true });
    writeFileSync(join(dir, 'node_modules', file), '#!/bin/sh\n');
  }
  return dir;
}

test('each kind has its own folder named by package and version, under the cache', () => {
  expect(NATIVE_KINDS.map((kind) => nativeInstallDir(kind, cache).slice(cache.length + 1))).toEqual([
    '_anthropic-ai_claude-agent-sdk_0.2.44',
    '_openai_codex_0.171.0',
    'opencode-ai_1.18.33',
    '_mariozechner_pi-coding-agent_0.73.1',
  ]);
  expect(nativeCacheDir({ M3_NATIVE_AGENTS_CACHE: '/x/y' })).toBe('/x/y');
  expect(nativeCacheDir({ XDG_CACHE_HOME: '/c' })).toBe('/c/sf-m3/native-agents');
  expect(() => nativeInstallDir('gemini', cache)).toThrow(/unknown native harness kind "gemini": use one of/);
});

test('a kind counts as installed only at the pinned version with its executable present', () => {
  expect(missingNativeAgents(NATIVE_KINDS, cache)).toEqual(NATIVE_KINDS);
  const pi = fakeInstall('pi', '0.73.1', ['.bin/pi']);
  expect(nativeExecutable('pi', cache)).toBe(join(pi, 'node_modules', '.bin', 'pi'));
  fakeInstall('codex', '0.170.0', ['.bin/codex']); // an older pin left in the folder
  expect(nativeExecutable('codex', cache)).toBeNull();
  fakeInstall('claude_code', '0.2.44', []); // the package without its cli.js
  expect(nativeExecutable('claude_code', cache)).toBeNull();
  expect(missingNativeAgents(NATIVE_KINDS, cache)).toEqual(['claude_code', 'codex', 'opencode']);
});

test('OpenCode runs the first platform binary present, in its postinstall order', () => {
  const order = opencodePlatformPackages();
  expect(order.length).toBeGreaterThanOrEqual(2);
  expect(
    order.every((name) => name.startsWith(`opencode-${process.platform === 'win32' ? 'windows' : process.platform}-`)),
  ).toBe(true);
  // Only the second-best variant is there: it is the one used; the stub launcher never is.
  const dir = fakeInstall('opencode', '1.18.33', [`${order[1]}/bin/opencode`, 'opencode-ai/bin/opencode.exe']);
  expect(nativeExecutable('opencode', cache)).toBe(join(dir, 'node_modules', order[1], 'bin', 'opencode'));
  expect(opencodePlatformPackages('linux', 'arm64')[0]).toMatch(/^opencode-linux-arm64(-musl)?$/);
});

test('--only picks targets, --no-build is the runner own, the rest goes to Jest', () => {
  expect(parseRunArgs(['--only', 'codex,pi', '-t', 'two turns'])).toEqual({
    targets: ['codex', 'pi'],
    build: true,
    jestArgs: ['-t', 'two turns'],
  });
  expect(parseRunArgs(['--only=claude-code', '--no-build']).targets).toEqual(['claude_code']);
  expect(parseRunArgs([]).targets).toEqual(['acp', ...NATIVE_KINDS, 'math', 'shipping']);
  expect(() => parseRunArgs(['--only', 'codex,gemini'])).toThrow(
    /unknown target gemini; use a comma-separated list of acp,/,
  );
  expect(() => parseRunArgs(['--only'])).toThrow(/--only needs a list/);
  expect(kindsToInstall(['math', 'pi'])).toEqual(['codex', 'opencode', 'pi']);
  expect(kindsToInstall(['shipping'])).toEqual(NATIVE_KINDS);
  expect(testFilesOf(['shipping'])).toEqual({ files: [], untested: [] });
  expect(testFilesOf(['acp', 'pi', 'math'])).toEqual({
    files: ['realAgents.test.js', 'nativeAgents.test.js', 'pi.test.js'],
    untested: [],
  });
  const present = (file) => ['claude-code.test.js', 'codex.test.js'].includes(file);
  expect(testFilesOf(['claude_code', 'codex', 'pi'], present)).toEqual({
    files: ['nativeAgents.test.js', 'claude-code.test.js', 'codex.test.js'],
    untested: ['pi'],
  });
});

test('the shipping target wants the evaluator at 100% per harness and per harness:model', () => {
  const { missingSummaryRows, SHIPPING_MODELS } = require('./nativeShipping');
  const rows = Object.entries(SHIPPING_MODELS).flatMap(([kind, model]) => [
    `    example.shipping_answer.v1    ${kind}  100.0%  [51.0%–100.0%]  4/4`,
    `    example.shipping_answer.v1    ${kind}:${model}  100.0%  [51.0%–100.0%]  4/4`,
  ]);
  expect(missingSummaryRows(rows.join('\n'))).toEqual([]);
  const lower = rows.map((row) =>
    row.replace('pi:fake/shipper  100.0%  [51.0%–100.0%]  4/4', 'pi:fake/shipper  75.0%  [x]  3/4'),
  );
  expect(missingSummaryRows(lower.join('\n'))).toEqual(['pi:fake/shipper']);
  expect(missingSummaryRows(rows.filter((row) => !row.includes(' codex ')).join('\n'))).toEqual(['codex']);
});

test('the descendant watch lists a child a command left running, and not one that exited', async () => {
  const { spawn } = require('node:child_process');
  const { watchDescendants } = require('./descendantWatch');
  // A shell that starts a sleeper in the background and exits (the sleeper is its leak) and a quick child.
  const parent = spawn('sh', ['-c', 'sleep 30 & echo $!; sleep 0.5; true'], { stdio: ['ignore', 'pipe', 'ignore'] });
  const watch = watchDescendants(parent.pid, { repo: join(__dirname, '..', '..'), intervalMs: 50 });
  let leaked = '';
  parent.stdout.on('data', (chunk) => (leaked += chunk));
  await new Promise((resolve) => parent.once('exit', resolve));
  const { seen, alive } = watch.survivors();
  try {
    expect(seen).toBeGreaterThanOrEqual(2);
    expect(alive.map((p) => [p.pid, p.cmdline])).toEqual([[Number(leaked.trim()), 'sleep 30']]);
  } finally {
    process.kill(Number(leaked.trim()), 'SIGKILL');
  }
});
