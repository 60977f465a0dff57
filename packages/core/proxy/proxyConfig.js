// The capture proxy's one-shot configuration file: read once, checked, deleted.
// Plain CommonJS, Node built-ins only (see mcp-capture-proxy.js).
'use strict';

const fs = require('node:fs');
const path = require('node:path');

const CONFIG_VERSION = 1;
/** Exit status for a refused configuration (EX_CONFIG). */
const EXIT_CONFIG = 78;

/** Says what is wrong on stderr (never a value from the config) and exits 78. */
function fail(message) {
  process.stderr.write(`sf-m3 capture proxy: ${message}\n`);
  process.exit(EXIT_CONFIG);
}

/** Reads the one-shot config: a regular 0600 file owned by us, never through a symlink; deletes it. */
function readConfig(configPath) {
  let fd = -1;
  try {
    fd = fs.openSync(configPath, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW || 0));
  } catch {
    removeConfig(configPath);
    fail(
      'the config file could not be opened (missing, or a symlink): it is one-shot, so a second start of this ' +
        "command finds it gone, e.g. an MCP SDK v2 client whose own StdioClientTransport probes the server's era " +
        "on a sibling process (versionNegotiation 'auto' or a pinned revision): start the command once " +
        '(a subclass of that transport probes in place); otherwise create it with writeProxyConfig',
    );
  }
  let text;
  try {
    const stat = fs.fstatSync(fd);
    const ownerOk = typeof process.getuid !== 'function' || stat.uid === process.getuid();
    if (!stat.isFile() || (stat.mode & 0o777) !== 0o600 || !ownerOk) {
      throw new Error('the config file must be a regular file with mode 0600 owned by this user');
    }
    text = fs.readFileSync(fd, 'utf8');
  } catch (error) {
    fs.closeSync(fd);
    removeConfig(configPath);
    fail(
      error instanceof Error && error.message.startsWith('the config') ? error.message : 'the config could not be read',
    );
  }
  fs.closeSync(fd);
  removeConfig(configPath);
  let config;
  try {
    config = JSON.parse(text);
  } catch {
    fail('the config file is not JSON: create it with writeProxyConfig');
  }
  const problem = validateConfig(config);
  if (problem) fail(`invalid config: ${problem}`);
  return config;
}

/** Deletes the config and its private directory (made by writeProxyConfig); errors are ignored. */
function removeConfig(configPath) {
  try {
    fs.unlinkSync(configPath);
  } catch {
    /* already gone */
  }
  const dir = path.dirname(configPath);
  if (path.basename(dir).startsWith('sf-m3-proxy-')) {
    try {
      fs.rmdirSync(dir);
    } catch {
      /* not empty or gone */
    }
  }
}

/** The first problem of a parsed config, or null (shape written by createProxyConfig). */
function validateConfig(c) {
  if (!c || typeof c !== 'object') return 'not an object';
  if (c.version !== CONFIG_VERSION) return `version must be ${CONFIG_VERSION}`;
  const s = c.server;
  if (!s || typeof s.command !== 'string' || s.command === '') return 'server.command must be a non-empty string';
  if (typeof s.name !== 'string' || s.name === '') return 'server.name must be a non-empty string';
  if (!Array.isArray(s.args) || s.args.some((a) => typeof a !== 'string')) return 'server.args must be strings';
  if (typeof c.capturePath !== 'string' || c.capturePath === '') return 'capturePath must be a path';
  if (!Array.isArray(c.canaries)) return 'canaries must be an array';
  const b = c.bounds;
  if (!b || !(b.previewBytes > 0) || !(b.frameBytes > 0) || !(b.stderrTailBytes > 0) || !(b.captureBytes > 0))
    return 'bounds are missing';
  const p = c.toolPolicy;
  if (!p || (p.mode !== 'allow_all' && p.mode !== 'allowlist')) return 'toolPolicy.mode must be allow_all or allowlist';
  if (c.eofGraceMs !== undefined && !(Number.isInteger(c.eofGraceMs) && c.eofGraceMs >= 0))
    return 'eofGraceMs must be a whole number';
  const r = c.replay;
  if (
    r !== undefined &&
    (!r || typeof r.url !== 'string' || !/^http:\/\/127\.0\.0\.1:\d+\//.test(r.url) || typeof r.token !== 'string')
  )
    return 'replay must be { url: a loopback http URL, token }';
  if (p.mode === 'allowlist' && (!Array.isArray(p.tools) || p.tools.some((t) => typeof t !== 'string'))) {
    return 'toolPolicy.tools must be tool names';
  }
  return null;
}

module.exports = { readConfig, fail };
