import type * as FastCheck from 'fast-check';

/** A JSON Schema as tools publish it: an object, or `true` / `false`. */
export type JsonSchema = { readonly [keyword: string]: unknown } | boolean;

/** How deep `$ref` recursion and nesting go before generation keeps to the minimum a schema allows. */
export const MAX_DEPTH = 4;

/**
 * What the schema walkers share: fast-check (loaded by the caller, never at import), the root
 * schema that local `$ref`s resolve against, and the notes about what could not be generated.
 */
export interface SchemaContext {
  readonly fc: typeof FastCheck;
  readonly root: JsonSchema;
  /** Unsupported keywords met while building, e.g. `not (ignored)`; reported, never thrown. */
  readonly notes: Set<string>;
}

/** The object form of a schema (`true` is `{}`; `false` is `{ not: {} }`). */
export function asObject(schema: JsonSchema): { readonly [keyword: string]: unknown } {
  if (schema === true) return {};
  if (schema === false) return { not: {} };
  return schema;
}

/**
 * Resolves a local `$ref` (`#`, `#/$defs/x`, `#/definitions/x`, any JSON pointer into the root).
 * Remote references cannot be followed offline: they become `true` and a note.
 */
export function resolveRef(ctx: SchemaContext, ref: string): JsonSchema {
  if (!ref.startsWith('#')) {
    ctx.notes.add(`remote $ref ${ref} (not fetched; any value generated)`);
    return true;
  }
  let node: unknown = ctx.root;
  for (const raw of ref.slice(1).split('/').slice(1)) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    node = typeof node === 'object' && node !== null ? (node as Record<string, unknown>)[key] : undefined;
  }
  if (typeof node === 'boolean' || (typeof node === 'object' && node !== null && !Array.isArray(node))) {
    return node as JsonSchema;
  }
  ctx.notes.add(`unresolvable $ref ${ref} (any value generated)`);
  return true;
}

/** The schema with its `$ref` followed (one level, keywords beside the `$ref` merged over it). */
export function derefOnce(ctx: SchemaContext, schema: JsonSchema): JsonSchema {
  const object = asObject(schema);
  if (typeof object.$ref !== 'string') return schema;
  const { $ref, ...rest } = object;
  const target = asObject(resolveRef(ctx, $ref as string));
  return { ...target, ...rest };
}

/** The JSON types a schema allows: its `type` (string or list), else inferred from its keywords. */
export function typesOf(schema: { readonly [keyword: string]: unknown }): string[] | null {
  const type = schema.type;
  if (typeof type === 'string') return [type];
  if (Array.isArray(type)) return type.filter((t): t is string => typeof t === 'string');
  if ('properties' in schema || 'required' in schema || 'additionalProperties' in schema) return ['object'];
  if ('items' in schema || 'minItems' in schema || 'maxItems' in schema) return ['array'];
  if ('minLength' in schema || 'maxLength' in schema || 'pattern' in schema || 'format' in schema) return ['string'];
  if ('minimum' in schema || 'maximum' in schema || 'exclusiveMinimum' in schema || 'exclusiveMaximum' in schema) {
    return ['number'];
  }
  return null;
}

/** A finite number keyword, or undefined. */
export function numberKeyword(schema: { readonly [keyword: string]: unknown }, key: string): number | undefined {
  const value = schema[key];
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** Keywords the generators do not honour; a schema using them gets a note and ajv filters the inputs. */
export const UNSUPPORTED_KEYWORDS = [
  'not',
  'if',
  'then',
  'else',
  'dependentRequired',
  'dependentSchemas',
  'dependencies',
  'patternProperties',
  'propertyNames',
  'unevaluatedProperties',
  'unevaluatedItems',
  'contains',
  'minProperties',
  'maxProperties',
  '$dynamicRef',
  '$recursiveRef',
] as const;

/** Adds a note for each unsupported keyword the schema uses. */
export function noteUnsupported(ctx: SchemaContext, schema: { readonly [keyword: string]: unknown }): void {
  for (const keyword of UNSUPPORTED_KEYWORDS) {
    if (keyword in schema) ctx.notes.add(`${keyword} (not generated; inputs that break it are filtered out)`);
  }
}
