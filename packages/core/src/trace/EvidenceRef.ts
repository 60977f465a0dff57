/** A reference to stored raw evidence (a frame, stderr): content-addressed by sha256. */
export interface EvidenceRef {
  /** `re:<sha256>` of the stored bytes. */
  readonly evidenceId: string;
  readonly sha256: string;
  readonly sizeBytes: number;
  readonly mediaType: string;
  /** Size before bounding; larger than `sizeBytes` when the evidence was truncated. */
  readonly originalSizeBytes: number;
  readonly truncated: boolean;
  readonly redacted: boolean;
}

/** Raw evidence read back and verified. */
export interface RawEvidence {
  readonly reference: EvidenceRef;
  readonly mediaType: string;
  /** UTF-8 text, or `base64:<...>` when the bytes are not valid UTF-8. */
  readonly content: string;
  readonly sizeBytes: number;
  readonly returnedSizeBytes: number;
  /** True when fewer bytes were returned than stored (`maxBytes`). */
  readonly truncated: boolean;
  readonly redacted: true;
}

/** A blob of raw evidence waiting to be stored with its execution. */
export interface RawEvidenceBlob {
  readonly reference: EvidenceRef;
  readonly bytes: Buffer;
}
