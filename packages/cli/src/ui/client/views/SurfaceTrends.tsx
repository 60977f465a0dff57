// The trends view's surface charts (contract §25): per server, tools called % and tools succeeded %
// over the newest runs, as a chart and a table.
import { apiPaths, SURFACE_TREND_RUNS } from '../../api/apiPaths';
import type { SurfaceTrendsPage } from '../../api/surfaceTrendsPage';
import { coverageText } from '../../shape/surfaceTable';
import { surfaceTrendLines } from '../../shape/surfaceTrendLines';
import { Loading, Section } from '../components/Bits';
import { TrendChart } from '../components/TrendChart';
import { href } from '../route';
import { useLoad } from '../useLoad';

/** The surface trends, one chart per server. */
export function SurfaceTrends() {
  const state = useLoad<SurfaceTrendsPage>(apiPaths.surfaceTrends());
  return (
    <Section title={`Surface coverage over the last ${SURFACE_TREND_RUNS} runs`} id="surface-trends">
      <Loading state={state}>
        {(page) =>
          page.series.length === 0 ? (
            <p class="muted">No run recorded a server's surface yet.</p>
          ) : (
            page.series.map((s) => (
              <div key={s.server} class="surface-server" data-testid="surface-trend" data-server={s.server}>
                <h3>
                  Server <code>{s.server}</code>: tools called and tools succeeded
                </h3>
                <TrendChart series={surfaceTrendLines(s)} height={180} testId="surface-trend-chart" intervals={false} />
                <table class="grid" data-testid="surface-trend-table">
                  <thead>
                    <tr>
                      <th>Run</th>
                      <th>Tools called</th>
                      <th>Tools succeeded</th>
                    </tr>
                  </thead>
                  <tbody>
                    {s.points.map((p) => (
                      <tr key={p.runId}>
                        <td>
                          <a href={href.run(p.runId)}>{p.runId}</a>
                        </td>
                        <td>{coverageText(p.tools)}</td>
                        <td>{coverageText(p.toolsSucceeded)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            ))
          )
        }
      </Loading>
    </Section>
  );
}
