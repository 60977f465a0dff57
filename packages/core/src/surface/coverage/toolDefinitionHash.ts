// The identity of a tool's definition as a model reads it (contract §25): two listings that show a
// tool with different hashes redefined it (coverage marks it, the lint rule `silent_redefinition`
// fails it). Only what the model is handed counts: description, inputSchema and outputSchema.
import { createHash } from 'node:crypto';
import type { JsonValue } from '../../json';
import { canonicalJson } from '../../evaluation/subjectDigest';

/** sha256 (hex) of the canonical JSON of any listed definition (prompts, resources, templates). */
export function definitionHash(definition: JsonValue): string {
  return createHash('sha256').update(canonicalJson(definition)).digest('hex');
}

/** sha256 (hex) of the canonical JSON of `{ description, inputSchema, outputSchema }` of a listed tool. */
export function toolDefinitionHash(tool: { readonly [key: string]: JsonValue | undefined }): string {
  return definitionHash({
    description: tool.description ?? null,
    inputSchema: tool.inputSchema ?? null,
    outputSchema: tool.outputSchema ?? null,
  });
}
