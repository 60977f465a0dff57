// A pass-rate chart on uPlot: one line per series, its 95% interval as a shaded band, x as time.
import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';

/** One line: a label and its points (x in seconds, y a rate in [0, 1] or null). */
export interface ChartSeries {
  label: string;
  points: { x: number; y: number | null; lo: number | null; hi: number | null }[];
}

const COLORS = ['#2563eb', '#dc2626', '#16a34a', '#9333ea', '#ea580c', '#0891b2', '#be185d', '#4d7c0f'];

/** Aligns the series on the union of their x values (uPlot's data layout). */
export function alignSeries(series: readonly ChartSeries[]): uPlot.AlignedData {
  const xs = [...new Set(series.flatMap((s) => s.points.map((p) => p.x)))].sort((a, b) => a - b);
  const columns: (number | null)[][] = [];
  for (const s of series) {
    const at = new Map(s.points.map((p) => [p.x, p]));
    columns.push(xs.map((x) => at.get(x)?.y ?? null));
    columns.push(xs.map((x) => at.get(x)?.lo ?? null));
    columns.push(xs.map((x) => at.get(x)?.hi ?? null));
  }
  return [xs, ...columns] as uPlot.AlignedData;
}

/** The chart; `testId` names its container for the browser tests. */
export function TrendChart({
  series,
  height = 260,
  testId,
  intervals = true,
}: {
  series: readonly ChartSeries[];
  height?: number;
  testId?: string;
  /** False for lines without an interval (surface coverage): the legend then names no band. */
  intervals?: boolean;
}) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = box.current;
    if (!el || series.length === 0) return;
    const lines: uPlot.Series[] = [{}];
    const bands: uPlot.Band[] = [];
    series.forEach((s, i) => {
      const color = COLORS[i % COLORS.length]!;
      const base = 1 + i * 3;
      lines.push({
        label: s.label,
        stroke: color,
        width: 2,
        points: { show: true, size: 6 },
        value: (_u, v) => (v == null ? '–' : `${(v * 100).toFixed(1)}%`),
      });
      lines.push({ label: `${s.label} low`, stroke: 'transparent', points: { show: false } });
      lines.push({ label: `${s.label} high`, stroke: 'transparent', points: { show: false } });
      bands.push({ series: [base + 2, base + 1], fill: `${color}22` });
    });
    const plot = new uPlot(
      {
        width: Math.max(320, el.clientWidth || 720),
        height,
        series: lines,
        bands,
        scales: {
          // One x value (a single run or bucket) gets a day around it instead of uPlot's years.
          x: { time: true, range: (_u, min, max) => (min === max ? [min - 43_200, max + 43_200] : [min, max]) },
          y: { range: [0, 1] },
        },
        axes: [{}, { values: (_u, ticks) => ticks.map((t) => `${Math.round(t * 100)}%`) }],
        legend: { show: false },
      },
      alignSeries(series),
      el,
    );
    return () => plot.destroy();
  }, [series, height]);
  if (series.length === 0) return <p class="muted">No evaluations to chart yet.</p>;
  return (
    <figure class="chart-figure" data-testid={testId}>
      <div class="chart" ref={box} />
      <figcaption class="legend">
        {series.map((s, i) => (
          <span key={s.label} class="legend-item">
            <span class="swatch" style={{ background: COLORS[i % COLORS.length] }} />
            {s.label}
          </span>
        ))}
        {intervals ? <span class="muted"> shaded: 95% Wilson interval</span> : null}
      </figcaption>
    </figure>
  );
}
