// The `replayed` / `recorded` / `mixed` badge of an execution served by a cassette (contract §24),
// beside its outcome in the run view and the execution view (and so in the HTML report).
import type { ExecutionRecord } from '@sf-m3/core';
import { cassetteMark } from '../../shape/cassetteMark';

/** The cassette badge of an execution; nothing when no cassette served it. */
export function CassetteBadge({ labels }: { labels: Pick<ExecutionRecord['labels'], 'metadata'> }) {
  const mark = cassetteMark(labels);
  if (mark === null) return null;
  return (
    <span
      class={`cassette cassette-${mark.use}`}
      data-testid="cassette-mark"
      data-cassette={mark.use}
      title={mark.title}
    >
      {mark.use}
    </span>
  );
}
