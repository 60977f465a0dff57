// The trends view: pass rate per evaluator, suite, model, harness, case or metadata key, over runs
// or UTC day / week buckets, with 95% intervals, as charts and as a table.
import { useMemo, useState } from 'preact/hooks';
import { apiPaths, TREND_BUCKETS, TREND_GROUPS, type TrendBucket } from '../../api/apiPaths';
import type { TrendsPage } from '../../api/trendsPage';
import { Loading, Rate, Section } from '../components/Bits';
import { TrendChart, type ChartSeries } from '../components/TrendChart';
import { href } from '../route';
import { useLoad } from '../useLoad';
import { embeddedData } from '../dataSource';

/** The groupings offered: the fixed labels plus the matrix configuration key. */
const GROUPS: readonly string[] = [...TREND_GROUPS, 'metadata.harness_config'];

function seriesOf(page: TrendsPage): ChartSeries[] {
  return page.series.map((s) => ({
    label: Object.values(s.key)
      .map((v) => v ?? '(none)')
      .join(' · '),
    points: s.points.map((p) => ({ x: p.x, y: p.passRate, lo: p.interval?.[0] ?? null, hi: p.interval?.[1] ?? null })),
  }));
}

/** The trends view. */
export function TrendsView() {
  const [group, setGroup] = useState('evaluator');
  const [bucket, setBucket] = useState<TrendBucket>('run');
  const state = useLoad<TrendsPage>(apiPaths.trends(group, bucket));
  const back = embeddedData()?.runId;
  return (
    <>
      <p class="crumbs">
        <a href={href.runs()}>← all runs</a>
        {back ? (
          <>
            {' '}
            · <a href={href.run(back)}>run {back}</a>
          </>
        ) : null}
      </p>
      <h1>Trends</h1>
      <p class="controls">
        <label>
          group by{' '}
          <select
            value={group}
            onChange={(e) => setGroup((e.target as HTMLSelectElement).value)}
            data-testid="trend-group"
          >
            {GROUPS.map((g) => (
              <option key={g} value={g}>
                {g}
              </option>
            ))}
          </select>
        </label>{' '}
        <label>
          over{' '}
          <select
            value={bucket}
            onChange={(e) => setBucket((e.target as HTMLSelectElement).value as TrendBucket)}
            data-testid="trend-bucket"
          >
            {TREND_BUCKETS.map((b) => (
              <option key={b} value={b}>
                {b === 'run' ? 'runs' : b}
              </option>
            ))}
          </select>
        </label>
      </p>
      <Loading state={state}>{(page) => <Trend page={page} />}</Loading>
    </>
  );
}

function Trend({ page }: { page: TrendsPage }) {
  const series = useMemo(() => seriesOf(page), [page]);
  return (
    <>
      <Section title={`Pass rate per ${page.group} over ${page.bucket === 'run' ? 'runs' : page.bucket}`}>
        <TrendChart series={series} testId="trend-chart" />
      </Section>
      <Section title="Values">
        <table class="grid" data-testid="trend-table">
          <thead>
            <tr>
              <th>Series</th>
              <th>At</th>
              <th>Pass rate [95% interval] passed/expected</th>
            </tr>
          </thead>
          <tbody>
            {page.series.flatMap((s, i) =>
              s.points.map((p) => (
                <tr key={`${i} ${p.at}`}>
                  <td>{series[i]?.label}</td>
                  <td>{page.bucket === 'run' ? <a href={href.run(p.at)}>{p.at}</a> : p.at}</td>
                  <td>
                    <Rate rate={p.passRate} range={p.interval} passed={p.passed} expected={p.expected} />
                  </td>
                </tr>
              )),
            )}
          </tbody>
        </table>
      </Section>
    </>
  );
}
