import { isJsonObject } from './LintableTool';

/** The parts of a tool a silent redefinition changes (contract §25): its description and schemas. */
export interface ToolDescriptorParts {
  readonly description: unknown;
  readonly inputSchema: unknown;
  readonly outputSchema: unknown;
}

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (!isJsonObject(value)) return value;
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) sorted[key] = canonical(value[key]);
  return sorted;
}

/** Canonical JSON of a tool's description and schemas (object keys sorted), so equal tools compare equal. */
export function toolDescriptor(tool: unknown): string {
  const t = isJsonObject(tool) ? tool : {};
  return JSON.stringify(
    canonical({
      description: t.description ?? null,
      inputSchema: t.inputSchema ?? null,
      outputSchema: t.outputSchema ?? null,
    }),
  );
}

/** The parts back from a descriptor. */
export function descriptorParts(descriptor: string): ToolDescriptorParts {
  return JSON.parse(descriptor) as ToolDescriptorParts;
}
