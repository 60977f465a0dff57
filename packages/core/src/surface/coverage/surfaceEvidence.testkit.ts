// Builds `ServerSurfaceEvidence` for the pure merge and threshold tests (extraction itself is tested
// on real frames in SurfaceEvidenceCollector.test.ts).
import type { AdvertisedTool, ServerSurfaceEvidence, ToolUse } from './SurfaceCoverage';

/** An advertised tool with `properties` and `enums`, hashed as `hash`. */
export function tool(hash: string, properties: string[] = [], enums: AdvertisedTool['enums'] = {}): AdvertisedTool {
  return { definitionHash: hash, properties, enums };
}

/** A tool used `calls` times, `successes` of them without `isError`. */
export function use(calls: number, successes: number, valuesUsed: ToolUse['valuesUsed'] = {}): ToolUse {
  return { calls, successes, propertiesUsed: Object.keys(valuesUsed).sort(), valuesUsed };
}

/** Evidence of one server; unset parts are empty and listings unseen unless something is advertised. */
export function serverEvidence(parts: {
  tools?: Record<string, AdvertisedTool>;
  prompts?: string[];
  resources?: string[];
  resourceTemplates?: string[];
  uses?: Record<string, ToolUse>;
  promptGets?: Record<string, number>;
  reads?: Record<string, number>;
}): ServerSurfaceEvidence {
  const hashes = (names: string[] = []): Record<string, string> =>
    Object.fromEntries(names.map((name) => [name, `h-${name}`]));
  return {
    listed: {
      tools: parts.tools !== undefined,
      prompts: parts.prompts !== undefined,
      resources: parts.resources !== undefined,
      resourceTemplates: parts.resourceTemplates !== undefined,
    },
    advertised: {
      tools: parts.tools ?? {},
      prompts: hashes(parts.prompts),
      resources: hashes(parts.resources),
      resourceTemplates: hashes(parts.resourceTemplates),
    },
    toolDefinitionHistory: Object.fromEntries(
      Object.entries(parts.tools ?? {}).map(([name, t]) => [name, [t.definitionHash]]),
    ),
    tools: parts.uses ?? {},
    prompts: parts.promptGets ?? {},
    resources: parts.reads ?? {},
  };
}
