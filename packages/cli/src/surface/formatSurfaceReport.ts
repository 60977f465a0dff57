// `m3 report --surface`: the run's surface block per server followed by its tool table (calls,
// results without `isError`, top-level properties and enum values exercised), contract §25.
import type { RunSurfaceCoverage, ServerSurfaceCoverage } from '@sf-m3/core';
import { formatServerSurface } from './formatSurfaceBlock';

function ratio(used: number, unused: number): string {
  return used + unused === 0 ? '—' : `${used}/${used + unused}`;
}

/** True when the run's listings did not advertise `tool` (or no test listed the server's tools). */
function unlisted(server: ServerSurfaceCoverage, tool: string): boolean {
  return !server.listed.tools || server.unadvertisedCalls.includes(tool);
}

function toolTable(server: ServerSurfaceCoverage): string[] {
  const rows = [
    ['tool', 'calls', 'ok', 'properties', 'enum values', ''],
    ...server.tools.map((row) => [
      row.tool,
      String(row.calls),
      String(row.successes),
      // A tool no listing advertised has no declared properties to count against.
      unlisted(server, row.tool)
        ? `${row.propertiesUsed.length} sent`
        : ratio(row.propertiesUsed.length, row.propertiesUnused.length),
      ratio(row.enumValuesUsed.length, row.enumValuesUnused.length),
      [
        row.redefined ? 'redefined' : '',
        server.unadvertisedCalls.includes(row.tool) ? 'not advertised' : '',
        row.enumValuesUnused.length > 0 ? `never sent: ${row.enumValuesUnused.join(', ')}` : '',
      ]
        .filter((note) => note !== '')
        .join('; '),
    ]),
  ];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
  const numeric = new Set([1, 2]);
  return rows.map((row) =>
    `    ${row.map((cell, i) => (numeric.has(i) ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!))).join('  ')}`.trimEnd(),
  );
}

/** The text `m3 report --surface` prints for one run. */
export function formatSurfaceReport(coverage: RunSurfaceCoverage): string {
  const lines = [`m3 run ${coverage.runId}  surface coverage`];
  if (coverage.servers.length === 0) {
    lines.push('no execution of this run reached a server (or the run was recorded before surface coverage)');
  }
  for (const server of coverage.servers) {
    lines.push(`surface     ${server.server}`, ...formatServerSurface(server));
    if (server.tools.length > 0) lines.push(...toolTable(server));
  }
  return `${lines.join('\n')}\n`;
}
