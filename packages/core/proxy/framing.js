// Newline framing on bytes, and what one frame holds (JSON, a batch, or something else).
// Plain CommonJS, Node built-ins only (see mcp-capture-proxy.js).
'use strict';

const { isUtf8 } = require('node:buffer');

const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;

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
  /** Calls onFrame(frame, true) for every frame this chunk completes, in order. */
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

/** Classifies a frame body: `json` (one message), `batch`, `non_json`, `empty` or `binary` (not UTF-8). */
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

/** The messages of a parsed frame: one for `json`, each element for `batch`, none otherwise. */
function messagesOf(parsed) {
  if (parsed.format === 'json') return [parsed.value];
  if (parsed.format === 'batch') return parsed.value;
  return [];
}

module.exports = { NEWLINE, FrameSplitter, frameBody, parseBody, messagesOf };
