// How an execution's model traffic was served, as the viewer and the HTML report mark it: its
// `metadata.cassette` label (contract §24). A replayed execution's timing and usage are the
// recording's, not this run's, so the mark says so where its figures are shown.
import type { ExecutionRecord } from '@sf-m3/core';

/** The mark of an execution served (wholly or partly) from a cassette. */
export interface CassetteMark {
  use: 'replayed' | 'recorded' | 'mixed';
  /** The tooltip: what the mark means for the execution's figures. */
  title: string;
}

const TITLES: Record<CassetteMark['use'], string> = {
  replayed:
    "replayed from a cassette: no model was called in this run; its usage is the recording's and its timing is not a model's",
  recorded: 'recorded into a cassette: a live model answered, and its answers were saved',
  mixed: 'partly replayed from a cassette and partly recorded live',
};

/** The mark of an execution with these labels; null when no cassette served it. */
export function cassetteMark(labels: Pick<ExecutionRecord['labels'], 'metadata'>): CassetteMark | null {
  const use = labels.metadata?.cassette;
  if (use !== 'replayed' && use !== 'recorded' && use !== 'mixed') return null;
  return { use, title: TITLES[use] };
}
