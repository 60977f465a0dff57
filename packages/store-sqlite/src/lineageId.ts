import { hash } from 'node:crypto';
import { lineageKey, type EvaluationLineage } from '@sf-m3/core';

/**
 * The integer key of a lineage `(executionId, turnId, evaluator, subjectDigest)`: the first 64
 * bits of the sha256 of its `lineageKey` (the in-memory store's key), as a decimal string (sqlite3
 * binds it exactly; a JS number would lose bits). Two different lineages share a key with
 * probability about n²/2⁶⁵.
 */
export function lineageId(lineage: EvaluationLineage): string {
  // One-shot `hash` (Node >= 20.12): a third of `createHash`'s cost, paid on every saved row.
  return hash('sha256', lineageKey(lineage), 'buffer').readBigInt64BE(0).toString();
}
