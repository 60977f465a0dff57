// The labels of an execution as the execution view shows them: each fact once. Agent runs copy
// `trial` into `metadata.trial` (so trends can group by it); the view shows that label once.
import type { ExecutionRecord } from '@sf-m3/core';

/** One shown label, `key=value`. */
export interface LabelPair {
  key: string;
  value: string;
}

/**
 * The top-level labels that are set, then the metadata labels that do not repeat one. A metadata
 * label whose key names a top-level label (unset, or with another value) is kept as `metadata.<key>`.
 */
export function labelPairs(labels: ExecutionRecord['labels']): LabelPair[] {
  const shown: LabelPair[] = [];
  const topLevel = new Map<string, string>();
  for (const [key, value] of Object.entries(labels)) {
    if (key === 'metadata' || value === null || value === undefined) continue;
    topLevel.set(key, String(value));
    shown.push({ key, value: String(value) });
  }
  for (const [key, value] of Object.entries(labels.metadata ?? {})) {
    if (topLevel.get(key) === value) continue;
    shown.push({ key: key in labels ? `metadata.${key}` : key, value });
  }
  return shown;
}
