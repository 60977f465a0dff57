// Raw evidence of an execution (frames, stderr), read on demand through the store's verifying
// reader: size and sha256 are checked before the bytes are shown.
import { useState } from 'preact/hooks';
import type { RawEvidence, RawMessageEntry } from '@sf-m3/core';
import { apiPaths } from '../../api/apiPaths';
import { load } from '../dataSource';
import { Observed } from '../components/Bits';

/** One raw frame with a button that loads its verified bytes. */
function Frame({ executionId, entry }: { executionId: string; entry: RawMessageEntry }) {
  const [shown, setShown] = useState<{ evidence?: RawEvidence; error?: string } | null>(null);
  const read = (): void => {
    load<RawEvidence>(apiPaths.evidence(executionId, entry.evidenceRef.evidenceId)).then(
      (evidence) => setShown({ evidence }),
      (error: unknown) => setShown({ error: error instanceof Error ? error.message : String(error) }),
    );
  };
  return (
    <li>
      <code>{entry.source}</code> {entry.direction}{' '}
      <span class="muted">
        {entry.mediaType}, {entry.sizeBytes} bytes
      </span>{' '}
      <Observed obs={entry.preview} render={(v) => <code class="preview">{String(v)}</code>} />{' '}
      <button onClick={read}>read verified</button>
      {shown?.evidence ? (
        <div class="evidence" data-testid="evidence">
          <div class="muted">
            sha256 {shown.evidence.reference.sha256} verified · {shown.evidence.returnedSizeBytes} of{' '}
            {shown.evidence.sizeBytes} bytes
          </div>
          <pre class="json">{shown.evidence.content}</pre>
        </div>
      ) : null}
      {shown?.error ? <div class="error">{shown.error}</div> : null}
    </li>
  );
}

/** The raw evidence list. */
export function Evidence({ executionId, frames }: { executionId: string; frames: readonly RawMessageEntry[] }) {
  if (frames.length === 0) return <p class="muted">No raw evidence kept.</p>;
  return (
    <ol class="frames">
      {frames.map((f) => (
        <Frame key={f.entryId} executionId={executionId} entry={f} />
      ))}
    </ol>
  );
}
