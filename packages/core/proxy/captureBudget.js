// The capture file's byte budget (contract §5, §22): a capture file is bounded as a trace is. Up
// to `captureBytes` every frame record is written whole (each already cut to `frameBytes`). Past
// it the budget is exhausted: frames a peer can send unasked and without limit (notifications,
// non-JSON or binary lines, invalid messages) are only counted, and requests, responses and
// errors are kept reduced (their per-message summaries: method, id, tool; no body) so calls still
// pair, within a further allowance of `captureBytes / 16`. Past that allowance every frame is
// only counted. The bookkeeping records (start, limit, exit, end) are outside the budget and
// bounded by construction, so the file never grows past about 1 1/16 × captureBytes plus a few
// hundred KiB, however long a peer floods.
// Plain CommonJS, Node built-ins only (see mcp-capture-proxy.js).
'use strict';

/** The share of the budget reduced records may still take once it is exhausted. */
const REDUCED_ALLOWANCE_DIVISOR = 16;

/** True when no message of the frame is one a call needs to pair (request, response, error). */
function isDroppable(parsed, messages) {
  if (parsed.format !== 'json' && parsed.format !== 'batch') return true;
  return !(messages || []).some((m) => m.kind === 'request' || m.kind === 'response' || m.kind === 'error');
}

class CaptureBudget {
  constructor(captureBytes) {
    this.captureBytes = captureBytes;
    this.reducedAllowance = Math.max(1, Math.floor(captureBytes / REDUCED_ALLOWANCE_DIVISOR));
    this.spentBytes = 0;
    this.reducedBytes = 0;
    this.exhausted = false;
    this.reducedFrames = 0;
    this.droppedFrames = 0;
  }

  /** Whether a whole frame record of `bytes` still fits; false exhausts the budget for good. */
  admitsWhole(bytes) {
    if (!this.exhausted && this.spentBytes + bytes <= this.captureBytes) {
      this.spentBytes += bytes;
      return true;
    }
    this.exhausted = true;
    return false;
  }

  /** Whether a reduced record of `bytes` fits the allowance (counted as reduced), else counted as dropped. */
  admitsReduced(bytes) {
    if (this.reducedBytes + bytes <= this.reducedAllowance) {
      this.reducedBytes += bytes;
      this.reducedFrames += 1;
      return true;
    }
    this.droppedFrames += 1;
    return false;
  }

  /** Counts a frame dropped without a record. */
  drop() {
    this.droppedFrames += 1;
  }

  /** What the `exit` record says about the budget, or undefined while it was never exhausted. */
  summary() {
    if (!this.exhausted) return undefined;
    return { captureBytes: this.captureBytes, reducedFrames: this.reducedFrames, droppedFrames: this.droppedFrames };
  }
}

module.exports = { CaptureBudget, isDroppable };
