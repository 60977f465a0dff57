import { ModelValidationError } from '../../errors/M3Error';
import type { RawEvidenceBlob } from '../../trace/EvidenceRef';
import type { TraceResultData } from '../../trace/TraceResult';
import type { FinishedExecution } from '../ExecutionStore';
import { canonicalInstant } from '../storeInputs';
import { checkedEvidenceDigest } from '../verifyRawEvidence';

/** A blob of raw evidence with the digest its bytes were checked against. */
export interface CheckedBlob {
  readonly sha256: string;
  readonly blob: RawEvidenceBlob;
}

/** A finished execution that passed the checks, with what its write needs computed once. */
export interface CheckedFinish {
  readonly finished: FinishedExecution;
  /** The trace's JSON form. */
  readonly data: TraceResultData;
  /** `finished.finishedAt`, canonical. */
  readonly finishedAt: string;
  readonly blobs: readonly CheckedBlob[];
}

/**
 * Each blob with its digest, in order; throws (`RawEvidenceIntegrityError`, or
 * `RawEvidenceUnavailable` for a malformed reference) at the first blob whose bytes do not match.
 */
export function checkedBlobs(evidence: readonly RawEvidenceBlob[]): CheckedBlob[] {
  return evidence.map((blob) => ({ sha256: checkedEvidenceDigest(blob.reference, blob.bytes), blob }));
}

/**
 * Checks `finished` before a SQL store writes anything (so no lock is held meanwhile): its trace
 * belongs to it, its time is canonical, every evidence blob matches its reference. Throws what the
 * first failed check throws.
 */
export function checkFinishedExecution(finished: FinishedExecution): CheckedFinish {
  const data = finished.trace.toJSON();
  if (data.executionId !== finished.executionId) {
    throw new ModelValidationError('finishExecution: the trace belongs to another execution', {
      executionId: finished.executionId,
    });
  }
  const finishedAt = canonicalInstant(finished.finishedAt, 'finishedAt');
  return { finished, data, finishedAt, blobs: checkedBlobs(finished.evidence) };
}
