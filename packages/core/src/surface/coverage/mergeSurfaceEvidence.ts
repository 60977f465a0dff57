// Merges what each execution of a run saw of each server into the run's surface coverage (contract
// §25): the four levels (called, called without `isError`, top-level properties used, enum values
// used) over the tools the run's listings advertised, and prompts and resources over theirs. Pure:
// the summary, reports and viewer all print what this returns.
import { coverageCount } from './coverageCount';
import type {
  AdvertisedTool,
  EnumValue,
  ExecutionSurfaceEvidence,
  RunSurfaceCoverage,
  ServerSurfaceCoverage,
  ServerSurfaceEvidence,
  ToolCoverageRow,
} from './SurfaceCoverage';
import { uriTemplateMatches } from './uriTemplateMatches';

/** One tool's use summed over executions; values kept by their JSON text so `1` and `'1'` differ. */
interface MergedUse {
  calls: number;
  successes: number;
  readonly propertiesUsed: Set<string>;
  readonly valuesUsed: Map<string, Set<string>>;
}

/** One server's evidence summed over executions. */
interface MergedServer {
  readonly listed: { tools: boolean; prompts: boolean; resources: boolean; resourceTemplates: boolean };
  /** The latest listing of each tool wins (a redefined tool is judged by its last definition). */
  readonly tools: Map<string, AdvertisedTool>;
  readonly prompts: Set<string>;
  readonly resources: Set<string>;
  readonly resourceTemplates: Set<string>;
  readonly definitionHashes: Map<string, Set<string>>;
  readonly uses: Map<string, MergedUse>;
  readonly promptGets: Map<string, number>;
  readonly resourceReads: Map<string, number>;
}

function emptyServer(): MergedServer {
  return {
    listed: { tools: false, prompts: false, resources: false, resourceTemplates: false },
    tools: new Map(),
    prompts: new Set(),
    resources: new Set(),
    resourceTemplates: new Set(),
    definitionHashes: new Map(),
    uses: new Map(),
    promptGets: new Map(),
    resourceReads: new Map(),
  };
}

function addCounts(into: Map<string, number>, counts: Readonly<Record<string, number>>): void {
  for (const [key, count] of Object.entries(counts)) into.set(key, (into.get(key) ?? 0) + count);
}

function absorb(merged: MergedServer, evidence: ServerSurfaceEvidence): void {
  merged.listed.tools ||= evidence.listed.tools;
  merged.listed.prompts ||= evidence.listed.prompts;
  merged.listed.resources ||= evidence.listed.resources;
  merged.listed.resourceTemplates ||= evidence.listed.resourceTemplates;
  for (const [name, tool] of Object.entries(evidence.advertised.tools)) merged.tools.set(name, tool);
  for (const name of Object.keys(evidence.advertised.prompts)) merged.prompts.add(name);
  for (const uri of Object.keys(evidence.advertised.resources)) merged.resources.add(uri);
  for (const template of Object.keys(evidence.advertised.resourceTemplates)) merged.resourceTemplates.add(template);
  for (const [name, hashes] of Object.entries(evidence.toolDefinitionHistory)) {
    const seen = merged.definitionHashes.get(name) ?? new Set<string>();
    for (const hash of hashes) seen.add(hash);
    merged.definitionHashes.set(name, seen);
  }
  for (const [name, use] of Object.entries(evidence.tools)) {
    let into = merged.uses.get(name);
    if (into === undefined) {
      into = { calls: 0, successes: 0, propertiesUsed: new Set(), valuesUsed: new Map() };
      merged.uses.set(name, into);
    }
    into.calls += use.calls;
    into.successes += use.successes;
    for (const property of use.propertiesUsed) into.propertiesUsed.add(property);
    for (const [property, values] of Object.entries(use.valuesUsed)) {
      const seen = into.valuesUsed.get(property) ?? new Set<string>();
      for (const value of values) seen.add(JSON.stringify(value));
      into.valuesUsed.set(property, seen);
    }
  }
  addCounts(merged.promptGets, evidence.prompts);
  addCounts(merged.resourceReads, evidence.resources);
}

const byName = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
const sorted = (names: Iterable<string>): string[] => [...names].sort(byName);

function enumLabel(property: string, value: EnumValue): string {
  return `${property}=${JSON.stringify(value)}`;
}

function toolRow(name: string, merged: MergedServer): ToolCoverageRow {
  const tool = merged.tools.get(name);
  const use = merged.uses.get(name);
  const used = use?.propertiesUsed ?? new Set<string>();
  const enumValuesUsed: string[] = [];
  const enumValuesUnused: string[] = [];
  for (const [property, values] of Object.entries(tool?.enums ?? {})) {
    const sent = use?.valuesUsed.get(property);
    for (const value of values) {
      (sent?.has(JSON.stringify(value)) === true ? enumValuesUsed : enumValuesUnused).push(enumLabel(property, value));
    }
  }
  return {
    tool: name,
    calls: use?.calls ?? 0,
    successes: use?.successes ?? 0,
    propertiesUsed: sorted(used),
    propertiesUnused: (tool?.properties ?? []).filter((property) => !used.has(property)),
    enumValuesUsed,
    enumValuesUnused,
    redefined: (merged.definitionHashes.get(name)?.size ?? 0) > 1,
  };
}

function serverCoverage(server: string, merged: MergedServer): ServerSurfaceCoverage {
  const advertised = sorted(merged.tools.keys());
  const unadvertisedCalls = merged.listed.tools
    ? sorted([...merged.uses.keys()].filter((n) => !merged.tools.has(n)))
    : [];
  // Every tool advertised or called has a row, so a server no test listed still shows its calls.
  const rows = sorted(new Set([...advertised, ...merged.uses.keys()])).map((name) => toolRow(name, merged));
  const advertisedRows = rows.filter((row) => merged.tools.has(row.tool));

  let propertiesCovered = 0;
  let propertiesTotal = 0;
  let enumsCovered = 0;
  let enumsTotal = 0;
  for (const row of advertisedRows) {
    propertiesCovered += row.propertiesUsed.filter((p) => merged.tools.get(row.tool)?.properties.includes(p)).length;
    propertiesTotal += merged.tools.get(row.tool)?.properties.length ?? 0;
    enumsCovered += row.enumValuesUsed.length;
    enumsTotal += row.enumValuesUsed.length + row.enumValuesUnused.length;
  }

  const promptsUnused = sorted([...merged.prompts].filter((name) => (merged.promptGets.get(name) ?? 0) === 0));
  const readUris = [...merged.resourceReads].filter(([, count]) => count > 0).map(([uri]) => uri);
  const resourcesUnused = sorted([
    ...[...merged.resources].filter((uri) => (merged.resourceReads.get(uri) ?? 0) === 0),
    ...[...merged.resourceTemplates].filter((template) => !readUris.some((uri) => uriTemplateMatches(template, uri))),
  ]);
  const resourcesTotal = merged.resources.size + merged.resourceTemplates.size;

  const neverCalled = advertisedRows.filter((row) => row.calls === 0).map((row) => row.tool);
  const neverSucceeded = advertisedRows.filter((row) => row.calls > 0 && row.successes === 0).map((row) => row.tool);
  return {
    server,
    listed: { ...merged.listed },
    measures: {
      tools: coverageCount(advertised.length - neverCalled.length, advertised.length),
      toolsSucceeded: coverageCount(advertisedRows.filter((row) => row.successes > 0).length, advertised.length),
      properties: coverageCount(propertiesCovered, propertiesTotal),
      enums: coverageCount(enumsCovered, enumsTotal),
      prompts: coverageCount(merged.prompts.size - promptsUnused.length, merged.prompts.size),
      resources: coverageCount(resourcesTotal - resourcesUnused.length, resourcesTotal),
    },
    neverCalled,
    neverSucceeded,
    promptsUnused,
    resourcesUnused,
    unadvertisedCalls,
    tools: rows,
  };
}

/**
 * The surface coverage of run `runId` from its executions' evidence (contract §25), servers sorted
 * by name. Evidence is merged by server name across direct and agent executions alike.
 */
export function mergeSurfaceEvidence(runId: string, evidence: readonly ExecutionSurfaceEvidence[]): RunSurfaceCoverage {
  const servers = new Map<string, MergedServer>();
  for (const execution of evidence) {
    for (const [server, seen] of Object.entries(execution)) {
      let merged = servers.get(server);
      if (merged === undefined) {
        merged = emptyServer();
        servers.set(server, merged);
      }
      absorb(merged, seen);
    }
  }
  const ordered = [...servers].sort(([a], [b]) => byName(a, b));
  return { runId, servers: ordered.map(([server, merged]) => serverCoverage(server, merged)) };
}
