import { checkSurfaceThresholds } from './checkSurfaceThresholds';
import { mergeSurfaceEvidence } from './mergeSurfaceEvidence';
import { serverEvidence, tool, use } from './surfaceEvidence.testkit';

const coverage = mergeSurfaceEvidence('run', [
  {
    shipping: serverEvidence({
      tools: { quote: tool('q', ['zone'], { zone: ['a', 'b'] }), cancel: tool('c'), track: tool('t') },
      uses: { quote: use(1, 1, { zone: ['a'] }), cancel: use(1, 0) },
    }),
    billing: serverEvidence({ tools: { charge: tool('x') }, uses: { charge: use(1, 1) } }),
  },
]);

describe('checkSurfaceThresholds', () => {
  it('passes when every measure reaches its threshold', () => {
    expect(checkSurfaceThresholds(coverage, { global: { tools: 60 }, billing: { tools: 100 } })).toEqual([]);
  });

  it('lists each miss with what is uncovered; a server entry overrides global measure by measure', () => {
    const misses = checkSurfaceThresholds(coverage, {
      global: { tools: 100, toolsSucceeded: 50, enums: 100 },
      billing: { tools: 0 },
    });
    expect(misses).toEqual([
      { server: 'shipping', measure: 'tools', required: 100, actual: (2 / 3) * 100, uncovered: ['track'] },
      {
        server: 'shipping',
        measure: 'toolsSucceeded',
        required: 50,
        actual: (1 / 3) * 100,
        uncovered: ['cancel', 'track'],
      },
      { server: 'shipping', measure: 'enums', required: 100, actual: 50, uncovered: ['quote.zone="b"'] },
    ]);
  });

  it('never judges a measure with nothing to cover, but misses a server the run never reached', () => {
    expect(checkSurfaceThresholds(coverage, { global: { prompts: 100, resources: 100 } })).toEqual([]);
    expect(checkSurfaceThresholds(coverage, { shiping: { tools: 50 } })).toEqual([
      { server: 'shiping', measure: 'tools', required: 50, actual: null, uncovered: [] },
    ]);
  });
});
