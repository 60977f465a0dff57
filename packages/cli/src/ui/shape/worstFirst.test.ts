import { newestWorstRate, worstFirst } from './worstFirst';

const chart = (title: string, ...ys: (number | null)[][]) => ({
  title,
  series: ys.map((points) => ({ points: points.map((y) => ({ y })) })),
});

describe('worstFirst', () => {
  test('orders by the newest rate of the worst series, charts without a rate last', () => {
    const charts = [
      chart('steady', [1, 1]),
      chart('fell', [1, 0.4]),
      chart('empty', [null]),
      chart('recovered', [0.1, 0.9]),
      chart('mixed', [1, 1], [0.9, 0.5]),
    ];
    expect(worstFirst(charts).map((c) => c.title)).toEqual(['fell', 'mixed', 'recovered', 'steady', 'empty']);
  });

  test('the newest rated point counts, not a trailing gap', () => {
    expect(newestWorstRate([{ points: [{ y: 0.2 }, { y: null }] }])).toBe(0.2);
  });
});
