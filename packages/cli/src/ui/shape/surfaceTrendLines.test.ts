import { surfaceTrendLines } from './surfaceTrendLines';

describe('surfaceTrendLines', () => {
  test('tools called and tools succeeded as rates per run; a run with no tools listed has no value', () => {
    const lines = surfaceTrendLines({
      server: 'shipping',
      points: [
        {
          x: 100,
          runId: 'run-a',
          tools: { covered: 1, total: 4, percent: 25 },
          toolsSucceeded: { covered: 0, total: 4, percent: 0 },
        },
        {
          x: 200,
          runId: 'run-b',
          tools: { covered: 0, total: 0, percent: null },
          toolsSucceeded: { covered: 0, total: 0, percent: null },
        },
        {
          x: 300,
          runId: 'run-c',
          tools: { covered: 3, total: 4, percent: 75 },
          toolsSucceeded: { covered: 2, total: 4, percent: 50 },
        },
      ],
    });
    expect(lines.map((l) => [l.label, l.points.map((p) => [p.x, p.y])])).toEqual([
      [
        'tools called',
        [
          [100, 0.25],
          [200, null],
          [300, 0.75],
        ],
      ],
      [
        'tools succeeded',
        [
          [100, 0],
          [200, null],
          [300, 0.5],
        ],
      ],
    ]);
  });
});
