import { createHash } from 'node:crypto';
import { ModelValidationError, RawEvidenceIntegrityError, RawEvidenceUnavailable } from '../errors/M3Error';
import type { EvidenceRef, RawEvidence } from '../trace/EvidenceRef';

const SHA256 = /^[0-9a-f]{64}$/;

/** Checks an evidence reference's shape and returns its sha256; throws `RawEvidenceUnavailable`. */
export function evidenceDigestOf(ref: EvidenceRef): string {
  if (ref === null || typeof ref !== 'object' || typeof ref.sha256 !== 'string' || !SHA256.test(ref.sha256)) {
    throw new RawEvidenceUnavailable('raw evidence reference is malformed: expected a sha256 digest', {});
  }
  if (typeof ref.evidenceId === 'string' && ref.evidenceId !== `re:${ref.sha256}`) {
    throw new RawEvidenceUnavailable('raw evidence reference is malformed: evidenceId does not match its sha256', {
      sha256: ref.sha256,
    });
  }
  return ref.sha256;
}

/** A blob's sha256 before it is stored, after checking the bytes really have that size and digest. */
export function checkedEvidenceDigest(ref: EvidenceRef, bytes: Buffer): string {
  const sha256 = evidenceDigestOf(ref);
  if (bytes.length !== ref.sizeBytes || createHash('sha256').update(bytes).digest('hex') !== sha256) {
    throw new RawEvidenceIntegrityError('raw evidence bytes do not match their reference: refusing to store them', {
      sha256,
    });
  }
  return sha256;
}

/**
 * Verifies stored evidence bytes against their reference (size, then sha256) and returns them,
 * cut to `maxBytes`. Text is returned as UTF-8, anything else as `base64:<...>`.
 */
export function verifyRawEvidence(
  ref: EvidenceRef,
  bytes: Buffer | null,
  options: { maxBytes?: number } = {},
): RawEvidence {
  const sha256 = evidenceDigestOf(ref);
  if (bytes === null) {
    throw new RawEvidenceUnavailable(
      'raw evidence is not in this store: it was never saved or belongs to another database',
      {
        sha256,
      },
    );
  }
  if (bytes.length !== ref.sizeBytes) {
    throw new RawEvidenceIntegrityError('stored raw evidence has the wrong size: the database was modified', {
      sha256,
      expectedBytes: ref.sizeBytes,
      storedBytes: bytes.length,
    });
  }
  if (createHash('sha256').update(bytes).digest('hex') !== sha256) {
    throw new RawEvidenceIntegrityError('stored raw evidence failed its sha256 check: the database was modified', {
      sha256,
    });
  }
  const maxBytes = options.maxBytes;
  if (maxBytes !== undefined && (!Number.isInteger(maxBytes) || maxBytes < 0)) {
    throw new ModelValidationError('readRawEvidence maxBytes must be a non-negative integer', { sha256 });
  }
  const returned = maxBytes === undefined ? bytes : bytes.subarray(0, maxBytes);
  return {
    reference: ref,
    mediaType: ref.mediaType,
    content: encodeEvidence(returned),
    sizeBytes: bytes.length,
    returnedSizeBytes: returned.length,
    truncated: returned.length < bytes.length,
    redacted: true,
  };
}

function encodeEvidence(bytes: Buffer): string {
  const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes);
  // Round-trip check: a cut in the middle of a multi-byte character, or binary data, is base64.
  return Buffer.from(text, 'utf8').equals(bytes) ? text : `base64:${bytes.toString('base64')}`;
}
