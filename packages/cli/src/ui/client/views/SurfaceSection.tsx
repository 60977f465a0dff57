// The run view's surface section (contract §25): per server, a table of its tools (calls,
// successes, properties and enum values exercised, redefinitions), what was never used, and the
// measures the thresholds name. Every value is rendered as text.
import { apiPaths } from '../../api/apiPaths';
import type { RunSurfaceCoverage, ServerSurfaceCoverage } from '@sf-m3/core';
import { surfaceLists, surfaceMeasuresLine, surfaceToolRows, unlistedToolsNote } from '../../shape/surfaceTable';
import { Loading, Section } from '../components/Bits';
import { useLoad } from '../useLoad';

/** The surface section of a run. */
export function SurfaceSection({ runId }: { runId: string }) {
  const state = useLoad<RunSurfaceCoverage>(apiPaths.surface(runId));
  return (
    <Section title="Surface" id="surface">
      <Loading state={state}>
        {(coverage) =>
          coverage.servers.length === 0 ? (
            <p class="muted" data-testid="surface-empty">
              No server surface was recorded in this run (no execution listed or called a server's tools).
            </p>
          ) : (
            coverage.servers.map((server) => <ServerSurface key={server.server} server={server} />)
          )
        }
      </Loading>
    </Section>
  );
}

function ServerSurface({ server }: { server: ServerSurfaceCoverage }) {
  const rows = surfaceToolRows(server);
  return (
    <div class="surface-server" data-testid="surface-server" data-server={server.server}>
      <h3>
        Server <code>{server.server}</code>
      </h3>
      <p class="surface-measures" data-testid="surface-measures">
        {surfaceMeasuresLine(server)}
      </p>
      {unlistedToolsNote(server) !== null ? (
        <p class="muted" data-testid="surface-unlisted">
          {unlistedToolsNote(server)}
        </p>
      ) : null}
      {rows.length > 0 ? (
        <table class="grid" data-testid="surface-table">
          <thead>
            <tr>
              <th>Tool</th>
              <th>Calls</th>
              <th>Successes</th>
              <th>Properties exercised</th>
              <th>Enum values exercised</th>
              <th>Redefined</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.tool} class={`surface-${r.state}`}>
                <td>
                  <code>{r.tool}</code>
                </td>
                <td>{r.calls}</td>
                <td>{r.successes}</td>
                <td>
                  {r.properties}
                  {r.propertiesUnused.length > 0 ? (
                    <div class="muted small">never: {r.propertiesUnused.join(', ')}</div>
                  ) : null}
                </td>
                <td>
                  {r.enumValues}
                  {r.enumValuesUnused.length > 0 ? (
                    <div class="muted small">never: {r.enumValuesUnused.join(', ')}</div>
                  ) : null}
                </td>
                <td>{r.redefined ? <span class="status status-failed">redefined</span> : ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {surfaceLists(server).map((list) => (
        <p key={list.label} data-testid="surface-list">
          <strong>{list.label}</strong> ({list.items.length}): {list.items.join(', ')}
        </p>
      ))}
    </div>
  );
}
