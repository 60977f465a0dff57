import { canonicalJson } from '../../evaluation/subjectDigest';
import type { JsonValue } from '../../json';
import { isJsonObject } from './LintableTool';

/** The parts of a tool a silent redefinition changes (contract §25): its description and schemas. */
export interface ToolDescriptorParts {
  readonly description: unknown;
  readonly inputSchema: unknown;
  readonly outputSchema: unknown;
}

/** Canonical JSON of a tool's description and schemas (object keys sorted), so equal tools compare equal. */
export function toolDescriptor(tool: unknown): string {
  const t = isJsonObject(tool) ? tool : {};
  // The same canonical JSON the coverage's toolDefinitionHash digests (keys sorted, compact).
  return canonicalJson({
    description: (t.description ?? null) as JsonValue,
    inputSchema: (t.inputSchema ?? null) as JsonValue,
    outputSchema: (t.outputSchema ?? null) as JsonValue,
  });
}

/** The parts back from a descriptor. */
export function descriptorParts(descriptor: string): ToolDescriptorParts {
  return JSON.parse(descriptor) as ToolDescriptorParts;
}
