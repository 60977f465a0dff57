// The `surface` block `m3 test` and `m3 report` print per server (contract §25): what the run's
// tests called of each server's tools, and in one more line the other measures, then what was left
// uncovered, redefined within the run, or called without being advertised.
import type { CoverageCount, RunSurfaceCoverage, ServerSurfaceCoverage } from '@sf-m3/core';

/** Names a line lists before `… N more` (`m3 report --surface --json` has them all). */
export const MAX_LISTED_NAMES = 10;

function names(items: readonly string[]): string {
  const shown = items.slice(0, MAX_LISTED_NAMES).join(', ');
  return items.length > MAX_LISTED_NAMES ? `${shown} … ${items.length - MAX_LISTED_NAMES} more` : shown;
}

function count(label: string, value: CoverageCount, listed: boolean): string {
  if (!listed) return `${label} not listed`;
  return value.total === 0 ? `${label} none` : `${label} ${value.covered}/${value.total}`;
}

function toolsLine(server: ServerSurfaceCoverage): string {
  const called = server.tools.filter((row) => row.calls > 0).length;
  if (!server.listed.tools) {
    const calledNames = server.tools.filter((row) => row.calls > 0).map((row) => row.tool);
    const calls = called === 0 ? 'none called' : `${called} called: ${names(calledNames)}`;
    return `tools not listed by any test (${calls}) — list them in a test (client.listTools()) to measure coverage`;
  }
  const { covered, total } = server.measures.tools;
  return `tools ${covered}/${total} called${server.neverCalled.length > 0 ? ` — never: ${names(server.neverCalled)}` : ''}`;
}

/** The lines of one server's block, indented under its `surface` heading. */
export function formatServerSurface(server: ServerSurfaceCoverage): string[] {
  const { measures, listed } = server;
  // Nothing listed at all: one line says so, and how to measure (no row of "not listed").
  if (!listed.tools && !listed.prompts && !listed.resources && !listed.resourceTemplates) {
    return [`  ${toolsLine(server)}`];
  }
  // Without a tools listing the tool measures cannot be counted; the first line said so already.
  const toolMeasures = listed.tools
    ? [
        count('succeeded', measures.toolsSucceeded, true),
        count('properties', measures.properties, true),
        count('enum values', measures.enums, true),
      ]
    : [];
  const lines = [
    toolsLine(server),
    [
      ...toolMeasures,
      count('prompts', measures.prompts, listed.prompts),
      count('resources', measures.resources, listed.resources || listed.resourceTemplates),
    ].join(' · '),
  ];
  if (server.neverSucceeded.length > 0) lines.push(`only isError results: ${names(server.neverSucceeded)}`);
  if (server.promptsUnused.length > 0) lines.push(`prompts never fetched: ${names(server.promptsUnused)}`);
  if (server.resourcesUnused.length > 0) lines.push(`resources never read: ${names(server.resourcesUnused)}`);
  const redefined = server.tools.filter((row) => row.redefined).map((row) => row.tool);
  if (redefined.length > 0) lines.push(`redefined within the run: ${names(redefined)}`);
  if (server.unadvertisedCalls.length > 0) lines.push(`called but not advertised: ${names(server.unadvertisedCalls)}`);
  return lines.map((line) => `  ${line}`);
}

/** The `surface` block of every server of the run, or no lines when no execution reached a server. */
export function formatSurfaceBlock(coverage: RunSurfaceCoverage | null): string[] {
  if (coverage === null) return [];
  return coverage.servers.flatMap((server) => [`surface     ${server.server}`, ...formatServerSurface(server)]);
}
