import { surfaceOfSnapshot } from './collectRunSurfaceCoverage';
import { serverEvidence } from './surfaceEvidence.testkit';

describe('surfaceOfSnapshot', () => {
  it('skips snapshots stored before coverage was recorded and servers whose evidence lost its shape', () => {
    expect(surfaceOfSnapshot({ outcome: 'completed' })).toBeUndefined();
    expect(surfaceOfSnapshot(null)).toBeUndefined();
    const good = serverEvidence({});
    expect(surfaceOfSnapshot({ surface: { good, bad: { listed: {} } } })).toEqual({ good });
  });
});
