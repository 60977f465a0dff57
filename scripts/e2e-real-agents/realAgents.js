// The real agents the opt-in e2e run installs, where they live, and how the acp harness launches
// them against a loopback fake model, offline. Shared by run.js and the Jest suite. The native CLIs
// (Claude Code, Codex, OpenCode, Pi) are in nativeAgents.js, re-exported here.
'use strict';

const { existsSync, mkdirSync, readFileSync, writeFileSync } = require('node:fs');
const { homedir } = require('node:os');
const { join, resolve } = require('node:path');
const native = require('./nativeAgents');

/** Exact versions installed (the facts were established with these). */
const AGENT_PACKAGES = {
  '@google/gemini-cli': '0.61.0',
  '@zed-industries/claude-code-acp': '0.16.2',
};

/** `${M3_REAL_AGENTS_CACHE:-${XDG_CACHE_HOME:-~/.cache}/sf-m3/real-agents}`, outside the repository. */
function cacheDir(env = process.env) {
  if (env.M3_REAL_AGENTS_CACHE) return resolve(env.M3_REAL_AGENTS_CACHE);
  const base = env.XDG_CACHE_HOME ? resolve(env.XDG_CACHE_HOME) : join(homedir(), '.cache');
  return join(base, 'sf-m3', 'real-agents');
}

/** Packages missing from the cache or installed at another version. */
function missingPackages(cache) {
  return Object.entries(AGENT_PACKAGES)
    .filter(([name, version]) => {
      const manifest = join(cache, 'node_modules', name, 'package.json');
      return !existsSync(manifest) || JSON.parse(readFileSync(manifest, 'utf8')).version !== version;
    })
    .map(([name, version]) => `${name}@${version}`);
}

/** Entry scripts, run with `process.execPath` (both agents are plain JavaScript). */
function agentEntries(cache) {
  return {
    gemini: join(cache, 'node_modules', '@google', 'gemini-cli', 'bundle', 'gemini.js'),
    claude: join(cache, 'node_modules', '@zed-industries', 'claude-code-acp', 'dist', 'index.js'),
  };
}

/**
 * Gemini CLI system settings (highest precedence, found through GEMINI_CLI_SYSTEM_SETTINGS_PATH, so
 * nothing has to be written into the harness's temp home): no usage statistics, telemetry, update
 * checks or next-speaker model calls. Gemini refuses the file when a parent folder is world-writable
 * (e.g. a cache under /tmp); the run still works then, it only loses these settings.
 */
function writeGeminiSettings(cache) {
  mkdirSync(cache, { recursive: true });
  const path = join(cache, 'gemini-system-settings.json');
  const settings = {
    privacy: { usageStatisticsEnabled: false },
    telemetry: { enabled: false },
    general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
    model: { skipNextSpeakerCheck: true },
  };
  writeFileSync(path, `${JSON.stringify(settings, null, 2)}\n`, { mode: 0o644 });
  return path;
}

/**
 * acp manifests for both agents, pointed at the fake model's origin with fake keys. Every variable
 * here is one the harness's allowlisted environment would otherwise not have.
 */
function realAgentManifests(cache, fakeModelOrigin) {
  const entries = agentEntries(cache);
  return {
    gemini: {
      command: process.execPath,
      args: [entries.gemini, '--acp'],
      env: {
        GOOGLE_GEMINI_BASE_URL: fakeModelOrigin,
        GEMINI_API_KEY: 'fake-gemini-key-for-loopback',
        // A fixed model skips the classifier-router's extra model call that "auto" makes first.
        GEMINI_MODEL: 'gemini-2.5-flash',
        // MCP servers of an untrusted folder are not started; the harness's temp workspace is new each run.
        GEMINI_CLI_TRUST_WORKSPACE: 'true',
        GEMINI_CLI_SYSTEM_SETTINGS_PATH: writeGeminiSettings(cache),
        GEMINI_TELEMETRY_ENABLED: 'false',
        GEMINI_CLI_NO_RELAUNCH: 'true',
      },
    },
    claude: {
      command: process.execPath,
      args: [entries.claude],
      env: {
        ANTHROPIC_BASE_URL: fakeModelOrigin,
        ANTHROPIC_API_KEY: 'sk-ant-fake-key-for-loopback',
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
        DISABLE_TELEMETRY: '1',
        DISABLE_ERROR_REPORTING: '1',
        DISABLE_AUTOUPDATER: '1',
      },
    },
  };
}

module.exports = {
  AGENT_PACKAGES,
  cacheDir,
  missingPackages,
  agentEntries,
  realAgentManifests,
  NATIVE_AGENTS: native.NATIVE_AGENTS,
  NATIVE_KINDS: native.NATIVE_KINDS,
  nativeCacheDir: native.nativeCacheDir,
  nativeExecutable: native.nativeExecutable,
  missingNativeAgents: native.missingNativeAgents,
};
