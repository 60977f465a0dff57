// The server's stand-in when the kit replays an MCP server's side from a cassette (contract §24):
// no process is started. Each client request is sent to the kit's loopback replay endpoint, which
// answers from the cassette tape; the answers come back on `stdout` as newline-delimited frames,
// as the server's would. It looks like a child process to the relay (`stdin`, `stdout`, `stderr`,
// `pid`, `kill`, `close`), so framing, capture and policy stay exactly the same.
// Plain CommonJS, Node built-ins only (see mcp-capture-proxy.js).
'use strict';

const http = require('node:http');
const { EventEmitter, once } = require('node:events');
const { PassThrough, Writable } = require('node:stream');
const { FrameSplitter, frameBody, parseBody, messagesOf } = require('./framing');

/** JSON-RPC error code of an answer the replay endpoint could not give (the kit went away). */
const REPLAY_UNREACHABLE_CODE = -32603;

/** True for a JSON-RPC request: a method and an id. */
function isRequest(m) {
  return m !== null && typeof m === 'object' && typeof m.method === 'string' && 'id' in m;
}

/** POSTs one request to the replay endpoint; resolves the messages that answer it. */
function ask(replay, message) {
  return new Promise((resolve) => {
    const body = Buffer.from(JSON.stringify({ message }), 'utf8');
    const unreachable = () =>
      resolve([
        {
          jsonrpc: '2.0',
          id: message.id,
          error: {
            code: REPLAY_UNREACHABLE_CODE,
            message: 'sf-m3 cassette replay: the kit did not answer this request',
          },
        },
      ]);
    const req = http.request(
      replay.url,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'content-length': body.length,
          authorization: `Bearer ${replay.token}`,
        },
      },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('error', unreachable);
        res.on('end', () => {
          try {
            const parsed = JSON.parse(Buffer.concat(chunks).toString('utf8'));
            if (res.statusCode !== 200 || !Array.isArray(parsed.messages)) return unreachable();
            resolve(parsed.messages);
          } catch {
            unreachable();
          }
        });
      },
    );
    req.on('error', unreachable);
    req.end(body);
  });
}

/**
 * Starts the stand-in. `replay` is `{ url, token }` from the config. Requests are answered one at a
 * time, in the order they arrived; notifications and the client's answers go nowhere. Closes (code
 * 0) once the client's input has ended and every answer is out, or at once on `kill`.
 */
function startReplayPeer(replay) {
  const peer = new EventEmitter();
  peer.pid = undefined;
  peer.stdout = new PassThrough();
  peer.stderr = new PassThrough();
  let queue = Promise.resolve();
  let closing = false;

  function deliver(messages) {
    if (closing) return;
    for (const m of messages) peer.stdout.write(`${JSON.stringify(m)}\n`);
  }
  const splitter = new FrameSplitter((frame, terminated) => {
    const parsed = parseBody(frameBody(frame, terminated).body);
    for (const m of messagesOf(parsed).filter(isRequest)) {
      queue = queue.then(() => ask(replay, m)).then(deliver);
    }
  });
  peer.stdin = new Writable({
    write(chunk, _encoding, callback) {
      splitter.push(chunk);
      callback();
    },
    final(callback) {
      splitter.end();
      callback();
    },
  });
  peer.stdin.on('finish', () => {
    queue.then(() => close(0, null));
  });

  function close(code, signal) {
    if (closing) return;
    closing = true;
    const ended = Promise.all([once(peer.stdout, 'end'), once(peer.stderr, 'end')]);
    peer.stdout.end();
    peer.stderr.end();
    ended.then(() => {
      peer.emit('exit', code, signal);
      peer.emit('close', code, signal);
    });
  }
  peer.kill = (signal) => {
    close(null, signal || 'SIGTERM');
    return true;
  };
  return peer;
}

module.exports = { startReplayPeer };
