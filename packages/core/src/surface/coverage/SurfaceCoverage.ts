// The shapes of surface coverage (contract §25): what one execution saw of each server's tools,
// prompts and resources (`ServerSurfaceEvidence`, kept in the execution's stored snapshot under
// `surface`), and what a whole run covered once those are merged (`RunSurfaceCoverage`), which the
// summary, `m3 report --surface`, feedback.json, JUnit, the HTML report and the viewer all print.
/** A scalar an enum may hold, as JSON carries it. */
export type EnumValue = string | number | boolean | null;

/** One advertised tool as a listing showed it. */
export interface AdvertisedTool {
  /** sha256 (hex) of the canonical JSON of the tool's description, inputSchema and outputSchema. */
  readonly definitionHash: string;
  /** Top-level property names of `inputSchema.properties`, sorted. */
  readonly properties: readonly string[];
  /** Top-level properties whose schema has an `enum`, with its values in schema order. */
  readonly enums: Readonly<Record<string, readonly EnumValue[]>>;
}

/** How a test used one tool inside one execution. */
export interface ToolUse {
  /** `tools/call` requests sent. */
  readonly calls: number;
  /** Calls answered with a result whose `isError` is not true (no JSON-RPC error either). */
  readonly successes: number;
  /** Top-level argument names that appeared in at least one call, sorted. */
  readonly propertiesUsed: readonly string[];
  /** Per property, the distinct scalar values sent (only scalars are kept; used for enum coverage). */
  readonly valuesUsed: Readonly<Record<string, readonly EnumValue[]>>;
}

/** What one execution saw of one server (keyed by the server's name in the snapshot). */
export interface ServerSurfaceEvidence {
  /** Which list operations this execution saw answered (any page). */
  readonly listed: {
    readonly tools: boolean;
    readonly prompts: boolean;
    readonly resources: boolean;
    readonly resourceTemplates: boolean;
  };
  readonly advertised: {
    readonly tools: Readonly<Record<string, AdvertisedTool>>;
    /** Prompt name → definition hash. */
    readonly prompts: Readonly<Record<string, string>>;
    /** Resource URI → definition hash. */
    readonly resources: Readonly<Record<string, string>>;
    /** URI template → definition hash. */
    readonly resourceTemplates: Readonly<Record<string, string>>;
  };
  /**
   * Every definition hash a listing showed, in order, per tool; two different hashes for one tool in
   * one run make it `redefined` (the lint rule `silent_redefinition`).
   */
  readonly toolDefinitionHistory: Readonly<Record<string, readonly string[]>>;
  readonly tools: Readonly<Record<string, ToolUse>>;
  /** Prompt name → `prompts/get` count. */
  readonly prompts: Readonly<Record<string, number>>;
  /** Resource URI → `resources/read` count. */
  readonly resources: Readonly<Record<string, number>>;
}

/** `snapshot.surface` of a stored execution: evidence per server name. */
export type ExecutionSurfaceEvidence = Readonly<Record<string, ServerSurfaceEvidence>>;

/** A covered / total pair; `percent` is `null` when `total` is 0 (nothing to cover). */
export interface CoverageCount {
  readonly covered: number;
  readonly total: number;
  readonly percent: number | null;
}

/** The six measures thresholds name (contract §25). */
export const SURFACE_MEASURES = ['tools', 'toolsSucceeded', 'properties', 'enums', 'prompts', 'resources'] as const;
export type SurfaceMeasure = (typeof SURFACE_MEASURES)[number];

/** One row of a server's tool table. */
export interface ToolCoverageRow {
  readonly tool: string;
  readonly calls: number;
  readonly successes: number;
  readonly propertiesUsed: readonly string[];
  readonly propertiesUnused: readonly string[];
  /** `property=value` pairs (value as JSON) of enum values sent / never sent. */
  readonly enumValuesUsed: readonly string[];
  readonly enumValuesUnused: readonly string[];
  /** True when listings in this run showed more than one definition of the tool. */
  readonly redefined: boolean;
}

/** What a run covered of one server. */
export interface ServerSurfaceCoverage {
  readonly server: string;
  /** Whether any execution saw each listing; an unlisted kind has total 0 and cannot be judged. */
  readonly listed: ServerSurfaceEvidence['listed'];
  readonly measures: Readonly<Record<SurfaceMeasure, CoverageCount>>;
  /** Advertised tools no test called, sorted. */
  readonly neverCalled: readonly string[];
  /** Advertised tools called but never without `isError`, sorted. */
  readonly neverSucceeded: readonly string[];
  /** Advertised prompts never fetched and resources (URIs and templates) never read, sorted. */
  readonly promptsUnused: readonly string[];
  readonly resourcesUnused: readonly string[];
  /** Tools called that no listing advertised (typos, hidden tools), sorted. */
  readonly unadvertisedCalls: readonly string[];
  readonly tools: readonly ToolCoverageRow[];
}

/** Surface coverage of one run, servers sorted by name. */
export interface RunSurfaceCoverage {
  readonly runId: string;
  readonly servers: readonly ServerSurfaceCoverage[];
}

/** Minimum percentages, as Jest's `coverageThreshold` (contract §25). */
export type SurfaceThreshold = Partial<Record<SurfaceMeasure, number>>;

/** `m3.surfaceThreshold`: `global` applies to every server, a server's name to that server. */
export interface SurfaceThresholdConfig {
  readonly global?: SurfaceThreshold;
  readonly [server: string]: SurfaceThreshold | undefined;
}

/** One missed threshold, with what is uncovered so the message can list it. */
export interface SurfaceThresholdMiss {
  readonly server: string;
  readonly measure: SurfaceMeasure;
  readonly required: number;
  readonly actual: number | null;
  readonly uncovered: readonly string[];
}
