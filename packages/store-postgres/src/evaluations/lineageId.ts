import { createHash } from 'node:crypto';
import { lineageKey, type EvaluationLineage } from '@sf-m3/core';

/**
 * The BIGINT key of a lineage `(executionId, turnId, evaluator, subjectDigest)`: the first 64 bits
 * of the sha256 of its `lineageKey`, as a decimal string — the same key the SQLite store uses, so
 * the two stores agree row for row. It is also the advisory lock a writer holds on the lineage.
 */
export function lineageId(lineage: EvaluationLineage): string {
  return createHash('sha256').update(lineageKey(lineage)).digest().readBigInt64BE(0).toString();
}
