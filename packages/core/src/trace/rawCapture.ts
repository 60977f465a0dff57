import * as cryptoModule from 'node:crypto';
import { createHash } from 'node:crypto';
import type { Redactor } from '../redaction/Redactor';
import type { EvidenceRef } from './EvidenceRef';

/** Byte limits applied to raw evidence after redaction. */
export interface RawEvidenceLimits {
  /** Bytes of a frame kept as a text preview in the event payload (default 64 KiB). */
  readonly previewBytes: number;
  /** Bytes of one frame kept as evidence (default 1 MiB). */
  readonly frameBytes: number;
  /** Bytes of raw evidence kept for a whole execution (default 64 MiB). */
  readonly executionBytes: number;
}

/** The limits of contract §5. */
export const DEFAULT_RAW_LIMITS: RawEvidenceLimits = Object.freeze({
  previewBytes: 64 * 1024,
  frameBytes: 1024 * 1024,
  executionBytes: 64 * 1024 * 1024,
});

/** What a piece of raw evidence is. */
/** Where raw evidence came from; `harness` is a native CLI's own protocol (stream-json, app-server, rpc, HTTP API). */
export type RawEvidenceSource = 'mcp' | 'acp' | 'harness' | 'provider_http' | 'process_stderr';

/**
 * The fields the recorder merges into the payload of an event recorded with a raw frame (a
 * `raw.frame` event): a redacted preview of at most 64 KiB and the sizes. `dropped` is set (and no
 * evidence kept) when the execution's raw budget was already spent.
 */
export interface RawFrameFields {
  source: RawEvidenceSource;
  mediaType: string;
  /** Redacted text preview (UTF-8, cut at 64 KiB), or `base64:<...>` for bytes that are not UTF-8. */
  preview: string;
  /** True when `preview` is shorter than the stored frame. */
  previewTruncated: boolean;
  /** Size of the redacted frame before bounding. */
  sizeBytes: number;
  /** True when the stored bytes are fewer than the redacted frame. */
  truncated: boolean;
  /** True when redaction replaced something. */
  redacted: boolean;
  dropped?: boolean;
}

/** One piece of raw evidence after redaction and bounding, before it is stored. */
export interface BoundedRaw {
  /**
   * The bytes to store (redacted, then cut to the frame limit and the remaining budget): a Buffer,
   * or the UTF-8 text itself when it fitted whole (Buffers are made only when the blobs are read,
   * which keeps thousands of small typed arrays away from the garbage collector).
   */
  readonly bytes: Buffer | string;
  readonly reference: EvidenceRef;
  /** Redacted text preview (UTF-8), or `base64:<...>` for bytes that are not UTF-8. */
  readonly preview: string;
  /** True when the preview is shorter than the stored bytes. */
  readonly previewTruncated: boolean;
  /** True when the remaining execution budget, not the frame limit, cut the bytes. */
  readonly cutByBudget: boolean;
}

type OneShotHash = (algorithm: string, data: string | Buffer, encoding: 'hex') => string;
/** `crypto.hash` (Node >= 20.12) is about twice as fast as `createHash` for small frames. */
const oneShot = (cryptoModule as unknown as { hash?: OneShotHash }).hash;

/** Hex sha256 of UTF-8 text or bytes. */
export function sha256Hex(data: string | Buffer): string {
  if (oneShot !== undefined) return oneShot('sha256', data, 'hex');
  return typeof data === 'string'
    ? createHash('sha256').update(data, 'utf8').digest('hex')
    : createHash('sha256').update(data).digest('hex');
}

/** True when `bytes` decode as UTF-8 without loss. */
function isUtf8(bytes: Buffer): boolean {
  return Buffer.from(bytes.toString('utf8'), 'utf8').equals(bytes);
}

/** Cuts UTF-8 `bytes` to at most `limit` bytes without splitting a character. */
function cutUtf8(bytes: Buffer, limit: number): Buffer {
  if (bytes.length <= limit) return bytes;
  let end = limit;
  // Step back over continuation bytes (10xxxxxx) so a multi-byte character is never split.
  while (end > 0 && ((bytes[end] ?? 0) & 0xc0) === 0x80) end -= 1;
  return bytes.subarray(0, end);
}

/** The common case: redacted text that fits the frame limit, the budget and the preview whole. */
function boundWholeText(
  raw: string,
  inputBytes: number,
  originalSize: number,
  mediaType: string,
  redactor: Redactor,
  limits: RawEvidenceLimits,
  budgetBytes: number,
  alreadyRedacted: boolean,
): BoundedRaw | null {
  const redacted = redactor.redactText(raw);
  const size = redacted === raw ? inputBytes : Buffer.byteLength(redacted, 'utf8');
  if (size > limits.previewBytes || size > limits.frameBytes || size > budgetBytes) return null;
  const sha256 = sha256Hex(redacted);
  const reference: EvidenceRef = Object.freeze({
    evidenceId: `re:${sha256}`,
    sha256,
    sizeBytes: size,
    mediaType,
    originalSizeBytes: size + (originalSize - inputBytes),
    truncated: originalSize > inputBytes,
    redacted: redacted !== raw || alreadyRedacted,
  });
  return { bytes: redacted, reference, preview: redacted, previewTruncated: false, cutByBudget: false };
}

/**
 * Redacts raw text or bytes with the redactor, then bounds it: `min(frameBytes, budget)` bytes are
 * kept, addressed by sha256 (`re:<sha256>`). Returns null when the budget is already spent.
 * `knownInputBytes` is the UTF-8 size of `raw` when the caller already counted it.
 */
export function boundRaw(
  raw: string | Buffer,
  mediaType: string,
  redactor: Redactor,
  limits: RawEvidenceLimits,
  budgetBytes: number,
  originalSizeBytes?: number,
  alreadyRedacted = false,
  knownInputBytes?: number,
): BoundedRaw | null {
  const inputBytes = knownInputBytes ?? (typeof raw === 'string' ? Buffer.byteLength(raw, 'utf8') : raw.length);
  const originalSize = Math.max(originalSizeBytes ?? inputBytes, inputBytes);
  if (budgetBytes <= 0) return null;
  if (typeof raw === 'string') {
    const fast = boundWholeText(
      raw,
      inputBytes,
      originalSize,
      mediaType,
      redactor,
      limits,
      budgetBytes,
      alreadyRedacted,
    );
    if (fast !== null) return fast;
  }

  let text: boolean;
  let redactedBytes: Buffer;
  let changed: boolean;
  if (typeof raw === 'string' || isUtf8(raw)) {
    const source = typeof raw === 'string' ? raw : raw.toString('utf8');
    const redacted = redactor.redactText(source);
    changed = redacted !== source;
    redactedBytes = Buffer.from(redacted, 'utf8');
    text = true;
  } else {
    // Not text: redact canaries byte-for-byte through latin1, which maps every byte to one char.
    const source = raw.toString('latin1');
    const redacted = redactor.redactText(source);
    changed = redacted !== source;
    redactedBytes = Buffer.from(redacted, 'latin1');
    text = false;
  }

  const limit = Math.min(limits.frameBytes, budgetBytes);
  const bytes = text ? cutUtf8(redactedBytes, limit) : redactedBytes.subarray(0, limit);
  const sha256 = sha256Hex(bytes);
  const truncated = bytes.length < redactedBytes.length || originalSize > inputBytes;
  const previewSource = text ? cutUtf8(bytes, limits.previewBytes) : bytes.subarray(0, limits.previewBytes);
  const preview = text ? previewSource.toString('utf8') : `base64:${previewSource.toString('base64')}`;
  const reference: EvidenceRef = Object.freeze({
    evidenceId: `re:${sha256}`,
    sha256,
    sizeBytes: bytes.length,
    mediaType,
    // Size after redaction but before any bounding (including bytes the caller already dropped).
    originalSizeBytes: redactedBytes.length + (originalSize - inputBytes),
    truncated,
    redacted: changed || alreadyRedacted,
  });
  return {
    bytes,
    reference,
    preview,
    previewTruncated: previewSource.length < bytes.length,
    cutByBudget: budgetBytes < limits.frameBytes && redactedBytes.length > budgetBytes,
  };
}
