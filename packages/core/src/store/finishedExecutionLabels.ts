// What an execution's labels become when it finishes: the facts of how it ran that its snapshot
// carries (`ExecutionSnapshot.metadata`, e.g. `cassette: replayed`, contract §24) join its
// `metadata.<key>` labels, so they can be filtered and grouped by (contract §10) and the
// evaluations saved after the finish inherit them. Every store applies this one rule.
import type { JsonObject } from '../json';
import type { ExecutionRecord } from './records';

/** `snapshot.metadata`'s string entries; nothing when the snapshot has none (or not an object). */
export function snapshotMetadata(snapshot: JsonObject): Record<string, string> {
  const metadata = snapshot.metadata;
  if (metadata === null || typeof metadata !== 'object' || Array.isArray(metadata)) return {};
  const entries = Object.entries(metadata).filter((entry): entry is [string, string] => typeof entry[1] === 'string');
  return Object.fromEntries(entries);
}

/**
 * `labels` with `snapshot.metadata` added to `labels.metadata` (a snapshot key replaces a label of
 * the same key); `labels` itself when the snapshot carries no metadata.
 */
export function finishedExecutionLabels(
  labels: ExecutionRecord['labels'],
  snapshot: JsonObject,
): ExecutionRecord['labels'] {
  const added = snapshotMetadata(snapshot);
  if (Object.keys(added).length === 0) return labels;
  return { ...labels, metadata: { ...labels.metadata, ...added } };
}
