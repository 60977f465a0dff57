import type { Arbitrary } from 'fast-check';
import { invalidArguments } from './invalidArbitrary';
import type { JsonSchema, SchemaContext } from './SchemaContext';
import { validArbitrary } from './validArbitrary';

/** The generators of one tool's inputs (contract §25). */
export interface InputArbitraries {
  /** Arguments that satisfy the `inputSchema`. */
  readonly valid: Arbitrary<Record<string, unknown>>;
  /** Arguments (still a JSON object) that break it; null when the schema leaves nothing to break. */
  readonly invalid: Arbitrary<Record<string, unknown>> | null;
  /** What the generators could not honour (unsupported keywords, formats, patterns), sorted. */
  readonly notes: readonly string[];
}

/**
 * Builds the valid and invalid argument generators of a tool's `inputSchema`. fast-check is
 * required here, on first use, so importing sf-m3 never loads it.
 */
export function inputArbitraries(inputSchema: unknown): InputArbitraries {
  const fc = require('fast-check') as typeof import('fast-check');
  const root: JsonSchema =
    inputSchema === undefined
      ? { type: 'object' }
      : typeof inputSchema === 'boolean' || (typeof inputSchema === 'object' && inputSchema !== null)
        ? (inputSchema as JsonSchema)
        : { type: 'object' };
  const ctx: SchemaContext = { fc, root, notes: new Set() };
  // Tool arguments are a JSON object whatever the schema says (MCP); a non-object valid value becomes {}.
  const valid = validArbitrary(ctx, root).map((value) =>
    typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {},
  );
  const invalid = invalidArguments(ctx, root) as Arbitrary<Record<string, unknown>> | null;
  return { valid, invalid, notes: [...ctx.notes].sort() };
}
