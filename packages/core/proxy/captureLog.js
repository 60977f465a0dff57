// The append-only capture file: one JSON line per record (`v`, `seq`, `time`, `ts`, `server`).
// Record shapes are read by src/proxy/CaptureFile.ts; keep the two in sync.
// Plain CommonJS, Node built-ins only (see mcp-capture-proxy.js).
'use strict';

const fs = require('node:fs');
const { createHash } = require('node:crypto');
const { frameBody } = require('./framing');
const { cutUtf8 } = require('./redaction');
const { CaptureBudget, isDroppable } = require('./captureBudget');

const CAPTURE_VERSION = 1;
const EMPTY_SHA256 = createHash('sha256').update('', 'utf8').digest('hex');

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

/**
 * Records are appended with synchronous writes, so a record is in the file (the page cache every
 * reader sees) when `write` returns: the relay writes a server frame's record before the frame's
 * bytes reach the client, so whoever saw an answer can read its record. Synchronous writes also
 * keep the file in `seq` order and need no backpressure of their own: while one runs, the proxy
 * reads nothing more from either side.
 */
class CaptureLog {
  /**
   * Opens `capturePath` for appending (created 0600); throws when it cannot.
   * `redact` cleans frame text (`redact.bytes` frame bytes), `frameBytes` bounds what is stored of one
   * frame, `captureBytes` what frame records may take of the file (captureBudget.js).
   */
  constructor({ capturePath, serverName, redact, frameBytes, captureBytes }) {
    this.fd = fs.openSync(capturePath, 'a', 0o600);
    this.serverName = serverName;
    this.redact = redact;
    this.frameBytes = frameBytes;
    this.budget = new CaptureBudget(captureBytes);
    /** True once the `limit` record is written (the first frame past the budget). */
    this.limitWritten = false;
    this.seq = 0;
    /** True once a write failed: nothing more is written (the missing `end` tells the kit). */
    this.broken = false;
  }

  /** Appends one record; a failed write is reported once on stderr and ends the capture. */
  write(record) {
    if (this.broken) return;
    this.append(this.line(record));
  }

  /** The record stamped (`v`, `seq`, `time`, `ts`, `server`) and serialized as one line. */
  line(record) {
    record.v = CAPTURE_VERSION;
    record.seq = this.seq++;
    const now = performance.timeOrigin + performance.now();
    record.time = Math.round(now * 1000) / 1000;
    record.ts = new Date(now).toISOString();
    record.server = this.serverName;
    return Buffer.from(`${JSON.stringify(record)}\n`, 'utf8');
  }

  /** Writes a stamped line whole. */
  append(line) {
    try {
      for (let written = 0; written < line.length;) written += fs.writeSync(this.fd, line, written);
    } catch {
      this.broken = true;
      process.stderr.write('sf-m3 capture proxy: the capture file could not be written; wire evidence is incomplete\n');
    }
  }

  /** Appends a `frame` record: the frame redacted, then bounded, with a summary of its messages. */
  writeFrame(direction, origin, frame, terminated, parsed, extra) {
    const { body, crlf } = frameBody(frame, terminated);
    let raw;
    let redacted;
    let sizeBytes;
    if (parsed.format === 'binary') {
      const clean = this.redact.bytes(body);
      redacted = !clean.equals(body);
      raw = `base64:${clean.toString('base64')}`;
      sizeBytes = clean.length;
    } else {
      const text = parsed.text !== undefined ? parsed.text : body.toString('utf8');
      const clean = this.redact(text);
      redacted = clean !== text;
      raw = clean;
      sizeBytes = Buffer.byteLength(clean, 'utf8');
    }
    const bounded = cutUtf8(raw, this.frameBytes);
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
    if (this.broken) return;
    const seq = this.seq;
    const line = this.line(record);
    if (this.budget.admitsWhole(line.length)) return this.append(line);
    this.seq = seq;
    this.writeOverBudget(record, parsed);
  }

  /**
   * A frame past the budget: the `limit` record the first time, then the frame reduced to its
   * summaries when a call needs it to pair and it fits the allowance; otherwise only counted.
   */
  writeOverBudget(record, parsed) {
    if (!this.limitWritten) {
      this.limitWritten = true;
      this.write({ type: 'limit', captureBytes: this.budget.captureBytes });
    }
    if (isDroppable(parsed, record.messages)) return this.budget.drop();
    const reduced = Object.assign(record, {
      storedBytes: 0,
      sha256: EMPTY_SHA256,
      truncated: true,
      reduced: true,
      raw: '',
    });
    const seq = this.seq;
    const line = this.line(reduced);
    if (this.budget.admitsReduced(line.length)) return this.append(line);
    this.seq = seq;
  }

  /** What the `exit` record says about the budget (absent while it was never exhausted). */
  budgetSummary() {
    return this.budget.summary();
  }

  /** Closes the file (every record is already in it). */
  close() {
    try {
      fs.closeSync(this.fd);
    } catch {
      /* already closed */
    }
  }
}

module.exports = { CaptureLog };
