import { executionRecord } from './storeFixtures.testkit';
import { finishedExecutionLabels, snapshotMetadata } from './finishedExecutionLabels';

describe('finishedExecutionLabels', () => {
  const labels = executionRecord({ labels: { metadata: { team: 'a' } } as never }).labels;

  test("adds the snapshot's string metadata over the labels' own", () => {
    const out = finishedExecutionLabels(labels, { lifecycle: 'closed', metadata: { cassette: 'mixed', team: 'b' } });
    expect(out).toEqual({ ...labels, metadata: { team: 'b', cassette: 'mixed' } });
    expect(labels.metadata).toEqual({ team: 'a' });
  });

  test('keeps the labels when the snapshot has no metadata object, and drops values that are not strings', () => {
    expect(finishedExecutionLabels(labels, { lifecycle: 'closed' })).toBe(labels);
    expect(finishedExecutionLabels(labels, { metadata: ['replayed'] })).toBe(labels);
    expect(finishedExecutionLabels(labels, { metadata: null })).toBe(labels);
    expect(snapshotMetadata({ metadata: { cassette: 'replayed', n: 1, nested: { a: 'b' } } })).toEqual({
      cassette: 'replayed',
    });
  });
});
