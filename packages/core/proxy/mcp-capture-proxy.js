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
// `tools/call` the policy denies with a JSON-RPC error instead of forwarding it. With `replay` in
// the config (a cassette replays the server's side, contract §24) no server is started: a stand-in
// (replayPeer.js) asks the kit's loopback endpoint for each answer, and the relay is the same.
//
// Plain CommonJS with Node built-ins only: it runs inside agents' process trees where the kit's
// TypeScript build is not on any path. The whole `proxy/` folder ships: this file is the relay and
// its lifecycle; beside it are the config, framing, redaction, the capture file, the tool policy and
// what becomes of a client frame.
'use strict';

const { spawn } = require('node:child_process');
const { constants: osConstants } = require('node:os');
const { readConfig, fail } = require('./proxyConfig');
const { NEWLINE, FrameSplitter, frameBody, parseBody, messagesOf } = require('./framing');
const { makeRedactor, cutUtf8 } = require('./redaction');
const { CaptureLog } = require('./captureLog');
const { createToolPolicyCheck } = require('./toolPolicyCheck');
const { routeClientFrame } = require('./clientFrameRoute');
const { startReplayPeer } = require('./replayPeer');

const TERM_GRACE_MS = 2000;
/** Unanswered requests the exit record names; more are only counted (`inFlightOmitted`). */
const MAX_IN_FLIGHT_LISTED = 1000;

function main() {
  const configPath = process.argv[2];
  if (!configPath) fail('usage: mcp-capture-proxy.js <configPath>');
  const config = readConfig(configPath);
  const redact = makeRedactor(config.canaries);
  const bounds = config.bounds;
  const policy = createToolPolicyCheck(config.toolPolicy, config.server.name);

  let capture;
  try {
    capture = new CaptureLog({
      capturePath: config.capturePath,
      serverName: config.server.name,
      redact,
      frameBytes: bounds.frameBytes,
      captureBytes: bounds.captureBytes,
    });
  } catch {
    fail('the capture file could not be opened for appending: check capturePath');
  }
  const paused = { client: new Set(), server: new Set() };

  // Replaying from a cassette, the server is not started: its stand-in asks the kit for each answer.
  const child = config.replay
    ? startReplayPeer(config.replay)
    : spawn(config.server.command, config.server.args, {
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
  function trackForwarded(m) {
    if (m && typeof m === 'object' && typeof m.method === 'string' && 'id' in m) inFlight.set(idKey(m.id), m.method);
  }

  // Denial responses may only go to stdout between server frames, never inside one.
  const injections = [];
  const serverSplitter = new FrameSplitter((frame, terminated) => {
    const parsed = parseBody(frameBody(frame, terminated).body);
    for (const m of messagesOf(parsed)) {
      if (m && typeof m === 'object' && 'id' in m && !('method' in m)) inFlight.delete(idKey(m.id));
    }
    capture.writeFrame('server_to_client', 'server', frame, terminated, parsed);
  });
  function flushInjections() {
    while (injections.length > 0) writeStdout(injections.shift());
  }
  function inject(buf) {
    if (serverSplitter.midFrame) injections.push(buf);
    else writeStdout(buf);
  }

  // Every frame a chunk completes is recorded before the chunk is relayed, so a client never
  // holds an answer whose record is not in the capture file yet. The bytes of a frame still open
  // go on at once: the client cannot act on them before its newline.
  child.stdout.on('data', (chunk) => {
    serverSplitter.push(chunk);
    const lastNl = injections.length === 0 ? -1 : chunk.lastIndexOf(NEWLINE);
    if (lastNl === -1) {
      writeStdout(chunk);
      return;
    }
    writeStdout(chunk.subarray(0, lastNl + 1));
    flushInjections();
    if (lastNl + 1 < chunk.length) writeStdout(chunk.subarray(lastNl + 1));
  });

  let stderrTail = '';
  child.stderr.on('data', (chunk) => {
    process.stderr.write(chunk);
    stderrTail += chunk.toString('utf8');
    if (stderrTail.length > bounds.stderrTailBytes * 2) stderrTail = stderrTail.slice(-bounds.stderrTailBytes * 2);
  });

  // Forwarded first, then recorded: the record is built off the relay's critical path.
  const clientSplitter = new FrameSplitter((frame, terminated) => {
    const parsed = parseBody(frameBody(frame, terminated).body);
    const route = routeClientFrame(parsed, policy);
    route.forwarded.forEach(trackForwarded);
    if (route.forward !== null) writeServer(route.forward === 'frame' ? frame : route.forward);
    capture.writeFrame('client_to_server', 'client', frame, terminated, parsed, route.record);
    if (route.errors.length > 0) respondDenied(route.errors, route.asBatch);
  });

  function respondDenied(errors, asBatch) {
    const text = JSON.stringify(asBatch ? errors : errors[0]);
    const buf = Buffer.from(`${text}\n`, 'utf8');
    const parsed = { format: asBatch ? 'batch' : 'json', value: asBatch ? errors : errors[0], text };
    capture.writeFrame('server_to_client', 'proxy', buf, true, parsed);
    inject(buf);
  }

  capture.write({
    type: 'start',
    pid: child.pid === undefined ? null : child.pid,
    proxyPid: process.pid,
    ...(config.replay && { replay: true }),
    toolPolicy: policy.summary,
    bounds: {
      previewBytes: bounds.previewBytes,
      frameBytes: bounds.frameBytes,
      stderrTailBytes: bounds.stderrTailBytes,
      captureBytes: bounds.captureBytes,
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
    capture.write({ type: 'spawn_error', code: typeof error.code === 'string' ? error.code : 'spawn_failed' });
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
    // A flood of unanswered requests must not make the exit record unbounded: the first ones are named.
    const pending = [...inFlight.entries()]
      .slice(0, MAX_IN_FLIGHT_LISTED)
      .map(([id, method]) => ({ id: JSON.parse(id), method }));
    const budget = capture.budgetSummary();
    let exitCode;
    if (forcedExit !== null) exitCode = forcedExit;
    else if (stopping) exitCode = 128 + (osConstants.signals[stopping] || 15);
    else if (signal) exitCode = 128 + (osConstants.signals[signal] || 1);
    else if (code !== 0) exitCode = code === null ? 1 : code;
    else exitCode = !clientEnded && pending.length > 0 ? 1 : 0;
    if (forcedExit === null) {
      capture.write({
        type: 'exit',
        reason,
        code,
        signal,
        stopSignal: stopping || forcedStop,
        inFlight: pending,
        ...(inFlight.size > pending.length && { inFlightOmitted: inFlight.size - pending.length }),
        ...(budget && { budget }),
        stderrTail: tail,
        stderrTruncated: stderrTail.length > bounds.stderrTailBytes,
        ...(config.replay && { replay: true }),
      });
    }
    capture.write({ type: 'end', exitCode });
    capture.close();
    const exit = () => process.exit(exitCode);
    // The callback runs once everything written before it has been handed to the pipe.
    if (stdoutOpen) process.stdout.write('', exit);
    else exit();
  }
}

main();
