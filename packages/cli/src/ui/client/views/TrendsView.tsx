// The trends view: pass rate per evaluator, suite, model, harness, case or metadata key, over runs
// or UTC day / week buckets, with 95% intervals, as charts and as a table; then surface coverage
// (tools called and succeeded per server) over the newest runs.
import { useMemo, useState } from 'preact/hooks';
import { apiPaths, TREND_BUCKETS, TREND_GROUPS, type TrendBucket } from '../../api/apiPaths';
import type { TrendsPage } from '../../api/trendsPage';
import { Loading, Rate, Section } from '../components/Bits';
import { TrendChart, type ChartSeries } from '../components/TrendChart';
import { href } from '../route';
import { useLoad } from '../useLoad';
import { embeddedData } from '../dataSource';
import { worstFirst, WORST_SHOWN } from '../../shape/worstFirst';
import { SurfaceTrends } from './SurfaceTrends';
import './smallMultiples.css';

/** The groupings offered: the fixed labels plus the matrix configuration key. */
const GROUPS: readonly string[] = [...TREND_GROUPS, 'metadata.harness_config'];

/**
 * One chart per evaluator (its series are the group's values; one line when grouping by evaluator):
 * small multiples, worst first, so 17 evaluators stay readable.
 */
export function chartsOf(page: TrendsPage): { title: string; series: ChartSeries[] }[] {
  const charts = new Map<string, ChartSeries[]>();
  for (const s of page.series) {
    const evaluator = s.key.evaluator ?? '(none)';
    const title = evaluator;
    const label = page.group === 'evaluator' ? 'pass rate' : (s.key[page.group] ?? '(none)');
    const points = s.points.map((p) => ({
      x: p.x,
      y: p.passRate,
      lo: p.interval?.[0] ?? null,
      hi: p.interval?.[1] ?? null,
    }));
    charts.set(title, [...(charts.get(title) ?? []), { label, points }]);
  }
  return worstFirst([...charts.entries()].map(([title, series]) => ({ title, series })));
}

/** The tests-passed line of a run trend, or null (day and week buckets). */
function testsSeries(page: TrendsPage): ChartSeries | null {
  if (page.tests === null || page.tests.length === 0) return null;
  return { label: 'tests passed', points: page.tests.map((p) => ({ x: p.x, y: p.passRate, lo: null, hi: null })) };
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
      <SurfaceTrends />
    </>
  );
}

function Trend({ page }: { page: TrendsPage }) {
  const all = useMemo(() => chartsOf(page), [page]);
  const [only, setOnly] = useState('');
  const [everyChart, setEveryChart] = useState(false);
  const chosen = all.filter((c) => only === '' || c.title === only);
  const charts = everyChart || only !== '' ? chosen : chosen.slice(0, WORST_SHOWN);
  const over = page.bucket === 'run' ? 'runs' : page.bucket;
  const tests = testsSeries(page);
  return (
    <>
      {all.length > 1 ? (
        <p class="controls">
          <label>
            evaluator{' '}
            <select
              value={only}
              onChange={(e) => setOnly((e.target as HTMLSelectElement).value)}
              data-testid="trend-evaluator"
            >
              <option value="">all ({all.length})</option>
              {all.map((c) => (
                <option key={c.title} value={c.title}>
                  {c.title}
                </option>
              ))}
            </select>
          </label>
        </p>
      ) : null}
      {tests ? (
        <Section title={`Tests passed over ${over}`}>
          <TrendChart series={[tests]} height={140} testId="tests-trend" intervals={false} />
        </Section>
      ) : null}
      {charts.length === 0 ? <p class="muted">No evaluations to chart yet.</p> : null}
      {charts.length > 0 ? (
        <Section
          title={`Pass rate per ${page.group === 'evaluator' ? 'evaluator' : `${page.group}, one chart per evaluator,`} over ${over}${only === '' ? ' (worst first)' : ''}`}
        >
          <div class="small-multiples" data-testid="trend-charts">
            {charts.map((chart) => (
              <div key={chart.title} class="small-multiple">
                <h3 title={chart.title}>{chart.title}</h3>
                <TrendChart series={chart.series} height={140} testId="trend-chart" />
              </div>
            ))}
          </div>
          {chosen.length > charts.length ? (
            <p>
              <button onClick={() => setEveryChart(true)} data-testid="trend-show-all">
                show all {chosen.length} evaluators
              </button>{' '}
              <span class="muted">the {charts.length} with the lowest newest pass rate are shown</span>
            </p>
          ) : null}
        </Section>
      ) : null}
      <Section title="Values">
        <details>
          <summary>every point as a table</summary>
          <table class="grid" data-testid="trend-table">
            <thead>
              <tr>
                <th>Series</th>
                <th>At</th>
                <th>Pass rate [95% interval] passed/expected</th>
              </tr>
            </thead>
            <tbody>
              {page.series
                .filter((s) => only === '' || page.group === 'evaluator' || s.key.evaluator === only)
                .flatMap((s) =>
                  s.points.map((p) => (
                    <tr key={`${JSON.stringify(s.key)} ${p.at}`}>
                      <td>
                        {Object.values(s.key)
                          .map((v) => v ?? '(none)')
                          .join(' · ')}
                      </td>
                      <td>{page.bucket === 'run' ? <a href={href.run(p.at)}>{p.at}</a> : p.at}</td>
                      <td>
                        <Rate rate={p.passRate} range={p.interval} passed={p.passed} expected={p.expected} />
                      </td>
                    </tr>
                  )),
                )}
            </tbody>
          </table>
        </details>
      </Section>
    </>
  );
}
