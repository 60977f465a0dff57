#!/usr/bin/env node
// sf-m3 MCP capture proxy: sits between an agent and one stdio MCP server.
//
//   node mcp-capture-proxy.js <configPath>
//
// The config (written by `writeProxyConfig` in @sf-m3/core, a one-shot 0600 file that this script
// deletes as soon as it has read it) names the real server command, the capture file, the secrets
// to redact, the byte bounds and the normalized tool allowlist. The proxy spawns the server in its
// own process group, relays bytes unchanged both ways with backpressure, splits frames on newline
// bytes, appends one JSON line per frame to the capture file (redacted, then bounded) and answers a
// `tools/call` the policy denies with a JSON-RPC error instead of forwarding it.
//
// Plain CommonJS with Node built-ins only: it runs inside agents' process trees where the kit's
// TypeScript build is not on any path. Keep the record shapes in sync with src/proxy/CaptureFile.ts.
'use strict';

const fs = require('node:fs');
const path = require('node:path');
const { spawn } = require('node:child_process');
const { createHash } = require('node:crypto');
const { isUtf8 } = require('node:buffer');
const { constants: osConstants } = require('node:os');

const CAPTURE_VERSION = 1;
const CONFIG_VERSION = 1;
/** Exit status for a refused configuration (EX_CONFIG). */
const EXIT_CONFIG = 78;
const POLICY_DENIED_CODE = -32001;
const REDACTED = '[REDACTED]';
const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;
const BEARER = /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/gi;
const URL_USERINFO = /(\b[a-z][a-z0-9+.-]*:\/\/)[^\s/@:]+:[^\s/@]+@/gi;
const TERM_GRACE_MS = 2000;

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
    fail('the config file could not be opened (missing, or a symlink): create it with writeProxyConfig');
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
  if (!b || !(b.previewBytes > 0) || !(b.frameBytes > 0) || !(b.stderrTailBytes > 0)) return 'bounds are missing';
  const p = c.toolPolicy;
  if (!p || (p.mode !== 'allow_all' && p.mode !== 'allowlist')) return 'toolPolicy.mode must be allow_all or allowlist';
  if (c.eofGraceMs !== undefined && !(Number.isInteger(c.eofGraceMs) && c.eofGraceMs >= 0))
    return 'eofGraceMs must be a whole number';
  if (p.mode === 'allowlist' && (!Array.isArray(p.tools) || p.tools.some((t) => typeof t !== 'string'))) {
    return 'toolPolicy.tools must be tool names';
  }
  return null;
}

/** Canary redaction (plain and JSON-escaped forms, longest first), bearer tokens and URL userinfo. */
function makeRedactor(canaries) {
  const forms = new Set();
  for (const c of canaries) {
    if (typeof c !== 'string' || c.length < 4) continue;
    forms.add(c);
    forms.add(JSON.stringify(c).slice(1, -1));
  }
  const sorted = [...forms].sort((a, b) => b.length - a.length);
  return (text) => {
    let out = text;
    for (const secret of sorted) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
    if (out.includes('earer ') || out.includes('asic ')) out = out.replace(BEARER, `$1 ${REDACTED}`);
    if (out.includes('@')) out = out.replace(URL_USERINFO, `$1${REDACTED}@`);
    return out;
  };
}

/** Cuts a UTF-8 string to at most `limit` bytes without splitting a character. */
function cutUtf8(text, limit) {
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes <= limit) return { text, sizeBytes: bytes, truncated: false };
  const buf = Buffer.from(text, 'utf8');
  let end = limit;
  while (end > 0 && (buf[end] & 0xc0) === 0x80) end -= 1;
  return { text: buf.subarray(0, end).toString('utf8'), sizeBytes: bytes, truncated: true };
}

/** Splits a byte stream into newline-terminated frames without decoding it. */
class FrameSplitter {
  constructor(onFrame) {
    this.onFrame = onFrame;
    this.pending = [];
    this.pendingBytes = 0;
  }
  /** True when bytes of an unterminated frame are buffered. */
  get midFrame() {
    return this.pendingBytes > 0;
  }
  push(chunk) {
    let start = 0;
    let nl = chunk.indexOf(NEWLINE, start);
    while (nl !== -1) {
      let frame = chunk.subarray(start, nl + 1);
      if (this.pendingBytes > 0) {
        this.pending.push(frame);
        frame = Buffer.concat(this.pending, this.pendingBytes + frame.length);
        this.pending = [];
        this.pendingBytes = 0;
      }
      this.onFrame(frame, true);
      start = nl + 1;
      nl = chunk.indexOf(NEWLINE, start);
    }
    if (start < chunk.length) {
      this.pending.push(chunk.subarray(start));
      this.pendingBytes += chunk.length - start;
    }
  }
  /** Emits a trailing frame that never got its newline. */
  end() {
    if (this.pendingBytes === 0) return;
    const frame = Buffer.concat(this.pending, this.pendingBytes);
    this.pending = [];
    this.pendingBytes = 0;
    this.onFrame(frame, false);
  }
}

/** The frame's content without its line terminator. */
function frameBody(frame, terminated) {
  if (!terminated) return { body: frame, crlf: false };
  const crlf = frame.length >= 2 && frame[frame.length - 2] === CARRIAGE_RETURN;
  return { body: frame.subarray(0, frame.length - (crlf ? 2 : 1)), crlf };
}

function parseBody(body) {
  if (body.length === 0) return { format: 'empty', value: undefined };
  if (!isUtf8(body)) return { format: 'binary', value: undefined };
  const text = body.toString('utf8');
  try {
    const value = JSON.parse(text);
    return { format: Array.isArray(value) ? 'batch' : 'json', value, text };
  } catch {
    return { format: 'non_json', value: undefined, text };
  }
}

/** A compact description of one JSON-RPC message (no params or results). */
function describeMessage(m) {
  if (!m || typeof m !== 'object' || Array.isArray(m)) return { kind: 'invalid' };
  const hasId = Object.prototype.hasOwnProperty.call(m, 'id');
  if (typeof m.method === 'string') {
    const out = { kind: hasId ? 'request' : 'notification', method: m.method };
    if (hasId) out.id = m.id;
    if (m.method === 'tools/call' && m.params && typeof m.params.name === 'string') out.tool = m.params.name;
    return out;
  }
  if (hasId && Object.prototype.hasOwnProperty.call(m, 'error')) return { kind: 'error', id: m.id };
  if (hasId && Object.prototype.hasOwnProperty.call(m, 'result')) return { kind: 'response', id: m.id };
  return { kind: 'invalid' };
}

function main() {
  const configPath = process.argv[2];
  if (!configPath) fail('usage: mcp-capture-proxy.js <configPath>');
  const config = readConfig(configPath);
  const redact = makeRedactor(config.canaries);
  const bounds = config.bounds;
  const serverName = config.server.name;
  const allowlist = config.toolPolicy.mode === 'allowlist' ? new Set(config.toolPolicy.tools) : null;

  let capture;
  try {
    const fd = fs.openSync(config.capturePath, 'a', 0o600);
    capture = fs.createWriteStream(config.capturePath, { fd, flags: 'a' });
  } catch {
    fail('the capture file could not be opened for appending: check capturePath');
  }
  let captureBroken = false;
  capture.on('error', () => {
    if (!captureBroken)
      process.stderr.write('sf-m3 capture proxy: the capture file could not be written; wire evidence is incomplete\n');
    captureBroken = true;
  });
  let seq = 0;
  const paused = { client: new Set(), server: new Set() };

  function writeRecord(record) {
    if (captureBroken) return;
    record.v = CAPTURE_VERSION;
    record.seq = seq++;
    const now = performance.timeOrigin + performance.now();
    record.time = Math.round(now * 1000) / 1000;
    record.ts = new Date(now).toISOString();
    record.server = serverName;
    if (!capture.write(`${JSON.stringify(record)}\n`)) {
      pause('client', 'capture');
      pause('server', 'capture');
      capture.once('drain', () => {
        resume('client', 'capture');
        resume('server', 'capture');
      });
    }
  }

  function frameRecord(direction, origin, frame, terminated, parsed, extra) {
    const { body, crlf } = frameBody(frame, terminated);
    let raw;
    let redacted = false;
    let sizeBytes;
    if (parsed.format === 'binary') {
      raw = `base64:${body.toString('base64')}`;
      sizeBytes = body.length;
    } else {
      const text = parsed.text !== undefined ? parsed.text : body.toString('utf8');
      const clean = redact(text);
      redacted = clean !== text;
      raw = clean;
      sizeBytes = Buffer.byteLength(clean, 'utf8');
    }
    const bounded = cutUtf8(raw, bounds.frameBytes);
    const record = {
      type: 'frame',
      direction,
      origin,
      format: parsed.format,
      originalSizeBytes: body.length,
      sizeBytes,
      storedBytes: Buffer.byteLength(bounded.text, 'utf8'),
      sha256: createHash('sha256').update(bounded.text, 'utf8').digest('hex'),
      truncated: bounded.truncated,
      redacted,
      crlf,
      terminated,
      raw: bounded.text,
    };
    if (parsed.format === 'json') record.messages = [describeMessage(parsed.value)];
    else if (parsed.format === 'batch') record.messages = parsed.value.map(describeMessage);
    if (extra) Object.assign(record, extra);
    return record;
  }

  const child = spawn(config.server.command, config.server.args, {
    cwd: config.server.cwd || undefined,
    env: config.server.inheritEnv === false ? { ...config.server.env } : { ...process.env, ...config.server.env },
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: true,
  });

  function pause(side, reason) {
    paused[side].add(reason);
    (side === 'client' ? process.stdin : child.stdout).pause();
  }
  function resume(side, reason) {
    paused[side].delete(reason);
    if (paused[side].size === 0) (side === 'client' ? process.stdin : child.stdout).resume();
  }

  let stdoutOpen = true;
  function writeStdout(buf) {
    if (!stdoutOpen) return;
    if (!process.stdout.write(buf)) {
      pause('server', 'stdout');
      process.stdout.once('drain', () => resume('server', 'stdout'));
    }
  }
  process.stdout.on('error', () => {
    // The client went away: nothing more can be delivered; stop feeding the server.
    stdoutOpen = false;
    endServerInput();
  });

  let serverInputOpen = true;
  function writeServer(buf) {
    if (!serverInputOpen) return;
    if (!child.stdin.write(buf)) {
      pause('client', 'server-stdin');
      child.stdin.once('drain', () => resume('client', 'server-stdin'));
    }
  }
  function endServerInput() {
    if (!serverInputOpen) return;
    serverInputOpen = false;
    child.stdin.end();
  }
  child.stdin.on('error', () => {
    serverInputOpen = false;
  });

  // Requests forwarded to the server and not yet answered, keyed by JSON id.
  const inFlight = new Map();
  const idKey = (id) => JSON.stringify(id === undefined ? null : id);

  // Denial responses may only go to stdout between server frames, never inside one.
  const injections = [];
  const serverSplitter = new FrameSplitter((frame, terminated) => {
    const parsed = parseBody(frameBody(frame, terminated).body);
    if (parsed.format === 'json' || parsed.format === 'batch') {
      for (const m of parsed.format === 'json' ? [parsed.value] : parsed.value) {
        if (m && typeof m === 'object' && 'id' in m && !('method' in m)) inFlight.delete(idKey(m.id));
      }
    }
    writeRecord(frameRecord('server_to_client', 'server', frame, terminated, parsed));
  });
  function flushInjections() {
    while (injections.length > 0) writeStdout(injections.shift());
  }
  function inject(buf) {
    if (serverSplitter.midFrame) injections.push(buf);
    else writeStdout(buf);
  }

  child.stdout.on('data', (chunk) => {
    if (injections.length === 0) {
      writeStdout(chunk);
      serverSplitter.push(chunk);
      return;
    }
    const lastNl = chunk.lastIndexOf(NEWLINE);
    if (lastNl === -1) {
      writeStdout(chunk);
      serverSplitter.push(chunk);
      return;
    }
    const head = chunk.subarray(0, lastNl + 1);
    const tail = chunk.subarray(lastNl + 1);
    writeStdout(head);
    serverSplitter.push(head);
    flushInjections();
    if (tail.length > 0) {
      writeStdout(tail);
      serverSplitter.push(tail);
    }
  });

  let stderrTail = '';
  child.stderr.on('data', (chunk) => {
    process.stderr.write(chunk);
    stderrTail += chunk.toString('utf8');
    if (stderrTail.length > bounds.stderrTailBytes * 2) stderrTail = stderrTail.slice(-bounds.stderrTailBytes * 2);
  });

  /** The policy decision for one message, or null when it is not a tools/call. */
  function decide(m) {
    if (!m || typeof m !== 'object' || m.method !== 'tools/call') return null;
    const tool = m.params && typeof m.params.name === 'string' ? m.params.name : null;
    if (allowlist === null) return { tool, decision: 'allowed', reason: 'all tools allowed' };
    if (tool !== null && allowlist.has(tool)) return { tool, decision: 'allowed', reason: 'in allowlist' };
    const reason = allowlist.size === 0 ? 'every tool is denied' : 'not in the allowlist';
    return { tool, decision: 'denied', reason };
  }
  function denialError(m, d) {
    const name = d.tool === null ? '(unnamed)' : `'${serverName}:${d.tool}'`;
    return {
      jsonrpc: '2.0',
      id: m.id,
      error: {
        code: POLICY_DENIED_CODE,
        message: `MCP tool call ${name} was denied by this test's tool policy (${d.reason})`,
        data: { server: serverName, tool: d.tool, reason: d.reason },
      },
    };
  }
  function trackForwarded(m) {
    if (m && typeof m === 'object' && typeof m.method === 'string' && 'id' in m) inFlight.set(idKey(m.id), m.method);
  }

  const clientSplitter = new FrameSplitter((frame, terminated) => {
    const parsed = parseBody(frameBody(frame, terminated).body);
    if (parsed.format === 'json') {
      const d = decide(parsed.value);
      if (d && d.decision === 'denied') {
        writeRecord(
          frameRecord('client_to_server', 'client', frame, terminated, parsed, {
            policy: [{ id: parsed.value.id ?? null, ...d }],
            forwarded: false,
          }),
        );
        if ('id' in parsed.value) respondDenied([denialError(parsed.value, d)], false);
        return;
      }
      forwardFrame(frame, terminated, parsed, [parsed.value], d ? [{ id: parsed.value.id ?? null, ...d }] : []);
      return;
    }
    if (parsed.format === 'batch') {
      const decisions = parsed.value.map(decide);
      const policy = [];
      decisions.forEach((d, i) => {
        if (d)
          policy.push({
            index: i,
            id: parsed.value[i] && parsed.value[i].id !== undefined ? parsed.value[i].id : null,
            ...d,
          });
      });
      const deniedIdx = new Set(decisions.flatMap((d, i) => (d && d.decision === 'denied' ? [i] : [])));
      if (deniedIdx.size === 0) {
        forwardFrame(frame, terminated, parsed, parsed.value, policy);
        return;
      }
      // Per element: denied calls are answered here; the rest go on as a smaller batch.
      // Forwarded first, then recorded (as for a whole frame): the record is off the relay's path.
      const kept = parsed.value.filter((_m, i) => !deniedIdx.has(i));
      if (kept.length > 0) {
        kept.forEach(trackForwarded);
        writeServer(Buffer.from(`${JSON.stringify(kept)}\n`, 'utf8'));
      }
      writeRecord(
        frameRecord('client_to_server', 'client', frame, terminated, parsed, {
          policy,
          forwarded: kept.length > 0,
          partiallyForwarded: kept.length > 0,
        }),
      );
      const errors = parsed.value.flatMap((m, i) =>
        deniedIdx.has(i) && m && 'id' in m ? [denialError(m, decisions[i])] : [],
      );
      if (errors.length > 0) respondDenied(errors, true);
      return;
    }
    forwardFrame(frame, terminated, parsed, [], []);
  });

  /** Forwards a client frame unchanged, then records it: the record is built off the relay's critical path. */
  function forwardFrame(frame, terminated, parsed, messages, policy) {
    messages.forEach(trackForwarded);
    writeServer(frame);
    writeRecord(
      frameRecord(
        'client_to_server',
        'client',
        frame,
        terminated,
        parsed,
        policy.length > 0 ? { policy, forwarded: true } : { forwarded: true },
      ),
    );
  }

  function respondDenied(errors, asBatch) {
    const text = JSON.stringify(asBatch ? errors : errors[0]);
    const buf = Buffer.from(`${text}\n`, 'utf8');
    const parsed = { format: asBatch ? 'batch' : 'json', value: asBatch ? errors : errors[0], text };
    writeRecord(frameRecord('server_to_client', 'proxy', buf, true, parsed));
    inject(buf);
  }

  writeRecord({
    type: 'start',
    pid: child.pid === undefined ? null : child.pid,
    proxyPid: process.pid,
    toolPolicy: allowlist === null ? { mode: 'allow_all' } : { mode: 'allowlist', tools: [...allowlist] },
    bounds: {
      previewBytes: bounds.previewBytes,
      frameBytes: bounds.frameBytes,
      stderrTailBytes: bounds.stderrTailBytes,
    },
  });

  process.stdin.on('data', (chunk) => clientSplitter.push(chunk));
  let clientEnded = false;
  // A server that outlives its stdin by the grace period is stopped like on SIGTERM.
  let forcedStop = null;
  function afterClientEnd() {
    clientEnded = true;
    endServerInput();
    const grace = config.eofGraceMs;
    if (typeof grace === 'number' && grace > 0) {
      setTimeout(() => {
        if (finished || stopping) return;
        forcedStop = 'SIGTERM';
        signalGroup('SIGTERM');
        setTimeout(() => signalGroup('SIGKILL'), TERM_GRACE_MS).unref();
      }, grace).unref();
    }
  }
  process.stdin.on('end', () => {
    clientSplitter.end();
    afterClientEnd();
  });
  process.stdin.on('error', afterClientEnd);

  let stopping = null;
  function signalGroup(signal) {
    try {
      process.kill(-child.pid, signal);
    } catch {
      try {
        child.kill(signal);
      } catch {
        /* already gone */
      }
    }
  }
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP']) {
    process.on(signal, () => {
      if (stopping) return;
      stopping = signal;
      if (child.pid === undefined) return finish(null, null, 128 + (osConstants.signals[signal] || 15));
      signalGroup(signal);
      setTimeout(() => signalGroup('SIGKILL'), TERM_GRACE_MS).unref();
    });
  }

  let spawnFailed = false;
  child.on('error', (error) => {
    spawnFailed = true;
    writeRecord({ type: 'spawn_error', code: typeof error.code === 'string' ? error.code : 'spawn_failed' });
    finish(null, null, 127);
  });

  // 'close' fires after the child's stdout and stderr have ended, so every byte was relayed.
  child.on('close', (code, signal) => {
    if (spawnFailed) return;
    serverSplitter.end();
    flushInjections();
    finish(code, signal, null);
  });

  let finished = false;
  function finish(code, signal, forcedExit) {
    if (finished) return;
    finished = true;
    const reason = stopping ? 'signal' : spawnFailed ? 'spawn_error' : clientEnded ? 'client_eof' : 'server_exit';
    const tail = cutUtf8(redact(stderrTail.slice(-bounds.stderrTailBytes)), bounds.stderrTailBytes).text;
    const pending = [...inFlight.entries()].map(([id, method]) => ({ id: JSON.parse(id), method }));
    let exitCode;
    if (forcedExit !== null) exitCode = forcedExit;
    else if (stopping) exitCode = 128 + (osConstants.signals[stopping] || 15);
    else if (signal) exitCode = 128 + (osConstants.signals[signal] || 1);
    else if (code !== 0) exitCode = code === null ? 1 : code;
    else exitCode = !clientEnded && pending.length > 0 ? 1 : 0;
    if (forcedExit === null) {
      writeRecord({
        type: 'exit',
        reason,
        code,
        signal,
        stopSignal: stopping || forcedStop,
        inFlight: pending,
        stderrTail: tail,
        stderrTruncated: stderrTail.length > bounds.stderrTailBytes,
      });
    }
    writeRecord({ type: 'end', exitCode });
    const done = () => {
      const exit = () => process.exit(exitCode);
      // The callback runs once everything written before it has been handed to the pipe.
      if (stdoutOpen) process.stdout.write('', exit);
      else exit();
    };
    if (captureBroken) done();
    else capture.end(done);
  }
}

main();
