// A run's surface coverage (contract §25) as the run view and the static report show it: per server,
// one row per advertised or called tool, the lists of what was never used, and one measures line.
// Types only from core: this module is bundled into the browser front-end.
import type { CoverageCount, ServerSurfaceCoverage, SurfaceMeasure } from '@sf-m3/core';

/** One row of a server's tool table, every cell as text. */
export interface SurfaceToolRow {
  tool: string;
  calls: number;
  successes: number;
  /** `used/advertised` top-level input properties, e.g. `2/3`; `–` when the tool has none. */
  properties: string;
  propertiesUnused: readonly string[];
  /** `used/declared` enum values, e.g. `1/4`; `–` when no property of the tool is an enum. */
  enumValues: string;
  enumValuesUnused: readonly string[];
  redefined: boolean;
  /**
   * Listed but never called, called but never without `isError`, or called though no listing
   * advertised it (its properties and enum values are then `–`: there is nothing to cover).
   */
  state: 'never_called' | 'never_succeeded' | 'unadvertised' | 'covered';
}

/** One list under a server's table (never called, …), shown only when it has items. */
export interface SurfaceList {
  label: string;
  items: readonly string[];
}

/** The measures in the order the line shows them, with the words it uses. */
const MEASURE_WORDS: readonly (readonly [SurfaceMeasure, string])[] = [
  ['tools', 'tools called'],
  ['toolsSucceeded', 'tools succeeded'],
  ['properties', 'properties'],
  ['enums', 'enum values'],
  ['prompts', 'prompts'],
  ['resources', 'resources'],
];

function fraction(used: number, total: number): string {
  return total === 0 ? '–' : `${used}/${total}`;
}

/** The rows of a server's tool table, in the order coverage gives them. */
export function surfaceToolRows(server: ServerSurfaceCoverage): SurfaceToolRow[] {
  const neverCalled = new Set(server.neverCalled);
  const neverSucceeded = new Set(server.neverSucceeded);
  const unadvertised = new Set(server.unadvertisedCalls);
  return server.tools.map((row): SurfaceToolRow => {
    if (unadvertised.has(row.tool)) {
      return {
        tool: row.tool,
        calls: row.calls,
        successes: row.successes,
        properties: '–',
        propertiesUnused: [],
        enumValues: '–',
        enumValuesUnused: [],
        redefined: row.redefined,
        state: 'unadvertised',
      };
    }
    return {
      tool: row.tool,
      calls: row.calls,
      successes: row.successes,
      properties: fraction(row.propertiesUsed.length, row.propertiesUsed.length + row.propertiesUnused.length),
      propertiesUnused: row.propertiesUnused,
      enumValues: fraction(row.enumValuesUsed.length, row.enumValuesUsed.length + row.enumValuesUnused.length),
      enumValuesUnused: row.enumValuesUnused,
      redefined: row.redefined,
      state: neverCalled.has(row.tool) ? 'never_called' : neverSucceeded.has(row.tool) ? 'never_succeeded' : 'covered',
    };
  });
}

/** `7/9 (77.8%)`, or `–` when there is nothing to cover. */
export function coverageText(count: CoverageCount): string {
  if (count.total === 0) return '–';
  return `${count.covered}/${count.total} (${((count.covered / count.total) * 100).toFixed(1)}%)`;
}

/**
 * `tools called 7/9 (77.8%) · tools succeeded 6/9 (66.7%) · … · prompts not listed`. A kind no
 * execution listed cannot be judged and says so instead of showing 0/0.
 */
export function surfaceMeasuresLine(server: ServerSurfaceCoverage): string {
  const listedFor: Record<SurfaceMeasure, boolean> = {
    tools: server.listed.tools,
    toolsSucceeded: server.listed.tools,
    properties: server.listed.tools,
    enums: server.listed.tools,
    prompts: server.listed.prompts,
    resources: server.listed.resources || server.listed.resourceTemplates,
  };
  return MEASURE_WORDS.map(([measure, words]) =>
    listedFor[measure] ? `${words} ${coverageText(server.measures[measure])}` : `${words} not listed`,
  ).join(' · ');
}

/** The lists shown under a server's table: never called first; empty lists are left out. */
export function surfaceLists(server: ServerSurfaceCoverage): SurfaceList[] {
  return [
    { label: 'never called', items: server.neverCalled },
    { label: 'called, never succeeded', items: server.neverSucceeded },
    { label: 'called but not advertised', items: server.unadvertisedCalls },
    { label: 'prompts never fetched', items: server.promptsUnused },
    { label: 'resources never read', items: server.resourcesUnused },
  ].filter((list) => list.items.length > 0);
}

/**
 * Why a server has no tool rows: no execution saw its `tools/list` answered, so there is nothing
 * advertised to measure calls against. Null when tools were listed.
 */
export function unlistedToolsNote(server: ServerSurfaceCoverage): string | null {
  if (server.listed.tools) return null;
  return "no execution saw this server's tools/list answered, so tool coverage cannot be judged: list the tools in a test (client.listAllTools())";
}
