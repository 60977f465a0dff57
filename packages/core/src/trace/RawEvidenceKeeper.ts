import type { JsonObject } from '../json';
import type { Redactor } from '../redaction/Redactor';
import type { EvidenceBudget } from './EvidenceBudget';
import type { EvidenceRef, RawEvidenceBlob } from './EvidenceRef';
import { boundRaw, type RawEvidenceLimits, type RawEvidenceSource } from './rawCapture';
import type { RecordFields } from './RecorderInputs';
import type { StderrCapture } from './TraceEntry';

/** What the keeper reads from an event's fields: the raw frame or stderr and how to treat it. */
export type RawFields = Pick<
  RecordFields,
  'raw' | 'rawMediaType' | 'rawSource' | 'rawOriginalSizeBytes' | 'rawRedacted'
> & { raw: string | Buffer };

/** Options of a keeper. */
export interface RawEvidenceKeeperOptions {
  redactor: Redactor;
  limits: RawEvidenceLimits;
  /** The execution's evidence budget, shared with event payloads (`limits.executionBytes` is its size). */
  budget: EvidenceBudget;
  /** Called every time a frame was cut or dropped because the execution's budget ran out. */
  onBudgetExceeded: () => void;
}

/**
 * The raw evidence of one execution (contract §5): redacts, bounds (per frame and against the
 * execution's budget) and keeps each frame or stderr capture once per sha256, and writes its
 * preview fields into the event payload. Used by `TraceRecorder` for events recorded with `raw`.
 */
export class RawEvidenceKeeper {
  private readonly redactor: Redactor;
  private readonly limits: RawEvidenceLimits;
  private readonly onBudgetExceeded: () => void;
  private readonly budget: EvidenceBudget;
  /** Stored evidence; text is turned into a Buffer only when `evidence` is read. */
  private readonly blobs: Array<{ reference: EvidenceRef; bytes: Buffer | string }> = [];
  private readonly materialized: RawEvidenceBlob[] = [];
  private readonly blobDigests = new Set<string>();

  constructor(options: RawEvidenceKeeperOptions) {
    this.redactor = options.redactor;
    this.limits = options.limits;
    this.onBudgetExceeded = options.onBudgetExceeded;
    this.budget = options.budget;
  }

  /** Raw evidence blobs kept so far (deduplicated by sha256). */
  get evidence(): readonly RawEvidenceBlob[] {
    for (let i = this.materialized.length; i < this.blobs.length; i += 1) {
      const blob = this.blobs[i] as { reference: EvidenceRef; bytes: Buffer | string };
      const bytes = typeof blob.bytes === 'string' ? Buffer.from(blob.bytes, 'utf8') : blob.bytes;
      this.materialized.push(Object.freeze({ reference: blob.reference, bytes }));
    }
    return this.materialized;
  }

  /**
   * Keeps `fields.raw` as evidence and writes its preview fields into `payload` (a fresh copy the
   * caller owns); returns the evidence reference, if any was kept. The stored bytes and the preview
   * are counted against the execution's budget.
   */
  attach(fields: RawFields, payload: JsonObject): EvidenceRef | undefined {
    const raw = fields.raw;
    const mediaType = fields.rawMediaType ?? 'application/json';
    const source: RawEvidenceSource = fields.rawSource ?? 'mcp';
    const inputBytes = typeof raw === 'string' ? Buffer.byteLength(raw, 'utf8') : raw.length;
    const budget = this.budget.remaining;
    const bounded = boundRaw(
      raw,
      mediaType,
      this.redactor,
      this.limits,
      budget,
      fields.rawOriginalSizeBytes,
      fields.rawRedacted === true,
      inputBytes,
    );
    if (bounded === null || bounded.cutByBudget) this.onBudgetExceeded();
    if (source === 'process_stderr') {
      const stderr: StderrCapture =
        bounded === null
          ? { preview: '', sizeBytes: fields.rawOriginalSizeBytes ?? inputBytes, truncated: true, redacted: false }
          : {
              preview: bounded.preview,
              sizeBytes: bounded.reference.originalSizeBytes,
              truncated: bounded.reference.truncated || bounded.previewTruncated,
              redacted: bounded.reference.redacted,
              evidenceRef: bounded.reference,
            };
      payload.stderr = stderr as unknown as JsonObject;
    } else if (bounded === null) {
      // The fields of `RawFrameFields`, in its order, written in place (no intermediate object).
      payload.source = source;
      payload.mediaType = mediaType;
      payload.preview = '';
      payload.previewTruncated = true;
      payload.sizeBytes = fields.rawOriginalSizeBytes ?? inputBytes;
      payload.truncated = true;
      payload.redacted = false;
      payload.dropped = true;
    } else {
      payload.source = source;
      payload.mediaType = mediaType;
      payload.preview = bounded.preview;
      payload.previewTruncated = bounded.previewTruncated;
      payload.sizeBytes = bounded.reference.originalSizeBytes;
      payload.truncated = bounded.reference.truncated;
      payload.redacted = bounded.reference.redacted;
    }
    if (bounded === null) return undefined;
    // The preview is stored in the event; string length is its size closely enough (and cheaply).
    this.budget.spend(bounded.preview.length);
    if (!this.blobDigests.has(bounded.reference.sha256)) {
      this.blobDigests.add(bounded.reference.sha256);
      this.blobs.push({ reference: bounded.reference, bytes: bounded.bytes });
      this.budget.spend(bounded.reference.sizeBytes);
    }
    return bounded.reference;
  }
}
