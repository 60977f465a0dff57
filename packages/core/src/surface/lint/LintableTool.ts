/**
 * A tool as a server listed it, read structurally: servers are untrusted, so every field may be
 * missing or of the wrong type and the rules check before they read.
 */
export interface LintableTool {
  readonly name?: unknown;
  readonly title?: unknown;
  readonly description?: unknown;
  readonly inputSchema?: unknown;
  readonly outputSchema?: unknown;
  readonly annotations?: unknown;
}

/** The name a violation reports for the tool at `index`: its name, or `#index` when it has none. */
export function toolLabel(tool: LintableTool, index: number): string {
  return typeof tool.name === 'string' && tool.name.length > 0 ? tool.name : `#${index}`;
}

/** True for a plain JSON object (not an array, not null). */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
