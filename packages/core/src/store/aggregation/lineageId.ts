import { hash } from 'node:crypto';
import { lineageKey, type EvaluationLineage } from './lineage';

/**
 * The integer key of a lineage `(executionId, turnId, evaluator, subjectDigest)` the SQL stores
 * index evaluation rows by (SQLite `lineage_id`, PostgreSQL `lineage_id` and the advisory lock a
 * writer holds on the lineage): the first 64 bits of the sha256 of its `lineageKey`, read as a
 * signed big-endian integer, as a decimal string (a JS number would lose bits). Stored in existing
 * databases, so it must never change (lineageId.test.ts pins it). Two different lineages share a
 * key with probability about n²/2⁶⁵.
 */
export function lineageId(lineage: EvaluationLineage): string {
  // One-shot `hash` (Node >= 20.12): a third of `createHash`'s cost, paid on every saved row.
  return hash('sha256', lineageKey(lineage), 'buffer').readBigInt64BE(0).toString();
}
