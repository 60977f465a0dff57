// The runs view: every recent run with status, attempt counts and pass rate, and the trend line.
import { useMemo } from 'preact/hooks';
import type { RunsPage } from '../../api/runsPage';
import { apiPaths } from '../../api/apiPaths';
import { Loading, Rate, Section, Status } from '../components/Bits';
import { testPassRate } from '../../shape/testPassRate';
import { TrendChart, type ChartSeries } from '../components/TrendChart';
import { instant } from '../format';
import { href } from '../route';
import { useLoad } from '../useLoad';

// Tests passed is charted beside the evaluations: 4 of 14 tests failing must not read as 98.5%.
function trendOf(page: RunsPage): ChartSeries[] {
  const at = (r: RunsPage['runs'][number]) => Date.parse(r.run.startedAt) / 1000;
  const evaluations = page.runs
    .filter((r) => r.passRate !== null)
    .map((r) => ({ x: at(r), y: r.passRate, lo: null, hi: null }))
    .sort((a, b) => a.x - b.x);
  const tests = page.runs
    .map((r) => ({ x: at(r), y: testPassRate(r.run.counts).passRate, lo: null, hi: null }))
    .filter((p) => p.y !== null)
    .sort((a, b) => a.x - b.x);
  const series: ChartSeries[] = [];
  if (tests.length > 0) series.push({ label: 'tests passed', points: tests });
  if (evaluations.length > 0) series.push({ label: 'pass rate of all evaluations', points: evaluations });
  return series;
}

/** The runs view. */
export function RunsView() {
  const state = useLoad<RunsPage>(apiPaths.runs());
  return <Loading state={state}>{(page) => <RunsTable page={page} />}</Loading>;
}

function RunsTable({ page }: { page: RunsPage }) {
  const trend = useMemo(() => trendOf(page), [page]);
  return (
    <>
      <h1>Runs</h1>
      <Section title="Tests passed and evaluations passed over runs">
        <TrendChart series={trend} height={200} testId="runs-trend" intervals={false} />
      </Section>
      <Section title={`The ${page.runs.length} newest runs`}>
        <table class="grid" data-testid="runs-table">
          <thead>
            <tr>
              <th>Run</th>
              <th>Status</th>
              <th>Started</th>
              <th>Attempts</th>
              <th>Pass rate</th>
              <th>Label</th>
            </tr>
          </thead>
          <tbody>
            {page.runs.map(({ run, passRate, passedCount, expectedCount }) => (
              <tr key={run.runId}>
                <td>
                  <a href={href.run(run.runId)}>{run.runId}</a>
                </td>
                <td>
                  <Status value={run.status} />
                </td>
                <td>{instant(run.startedAt)}</td>
                <td>
                  {run.counts.passed} passed, {run.counts.failed} failed, {run.counts.skipped} skipped,{' '}
                  {run.counts.todo} todo
                </td>
                <td>
                  <Rate rate={passRate} passed={passedCount} expected={expectedCount} />
                </td>
                <td>{run.label ?? ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </Section>
    </>
  );
}
