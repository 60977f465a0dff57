import type { Arbitrary } from 'fast-check';
import {
  asObject,
  derefOnce,
  type JsonSchema,
  MAX_DEPTH,
  noteUnsupported,
  numberKeyword,
  type SchemaContext,
  typesOf,
} from './SchemaContext';

type SchemaObject = { readonly [keyword: string]: unknown };

const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;
/** Extra items or keys generation adds beyond a schema's minimum, so runs stay quick. */
const SPARE_ITEMS = 4;

/** Follows `$ref` chains (a cycle stops after a few hops and generates anything). */
export function dereference(ctx: SchemaContext, schema: JsonSchema): JsonSchema {
  let current = schema;
  for (let hop = 0; hop < 8; hop += 1) {
    const next = derefOnce(ctx, current);
    if (next === current) return current;
    current = next;
  }
  ctx.notes.add('$ref cycle without a schema (any value generated)');
  return true;
}

/**
 * An arbitrary of values that satisfy `schema` (contract §25). Keywords it does not honour are
 * noted in `ctx.notes`; the fuzzer then drops the values ajv rejects, so they never count as valid.
 */
export function validArbitrary(ctx: SchemaContext, schema: JsonSchema, depth = 0): Arbitrary<unknown> {
  const { fc } = ctx;
  if (depth > MAX_DEPTH * 3) {
    ctx.notes.add('required properties nested without end (null generated past the depth limit)');
    return fc.constant(null);
  }
  const resolved = dereference(ctx, schema);
  if (resolved === false) {
    ctx.notes.add('false schema (no value is valid)');
    return fc.constant(null);
  }
  const s = asObject(resolved);
  noteUnsupported(ctx, s);
  if ('const' in s) return fc.constant(s.const);
  if (Array.isArray(s.enum) && s.enum.length > 0) return fc.constantFrom(...(s.enum as unknown[]));
  if (Array.isArray(s.allOf) && s.allOf.length > 0) {
    const { allOf, ...rest } = s;
    return validArbitrary(ctx, mergeAll(ctx, [rest, ...(allOf as JsonSchema[])]), depth);
  }
  for (const key of ['anyOf', 'oneOf'] as const) {
    const branches = s[key];
    if (Array.isArray(branches) && branches.length > 0) {
      const { [key]: _branches, ...rest } = s;
      // Each branch is generated with the keywords beside it; oneOf overlap is left to ajv's filter.
      return fc.oneof(
        ...(branches as JsonSchema[]).map((branch) => validArbitrary(ctx, mergeAll(ctx, [rest, branch]), depth + 1)),
      );
    }
  }
  const types = typesOf(s);
  if (types === null) return fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.parse(JSON.stringify(v)) as unknown);
  const arbitraries = types.map((type) => typedArbitrary(ctx, s, type, depth));
  return arbitraries.length === 1 ? arbitraries[0] : fc.oneof(...arbitraries);
}

function typedArbitrary(ctx: SchemaContext, s: SchemaObject, type: string, depth: number): Arbitrary<unknown> {
  const { fc } = ctx;
  switch (type) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer':
      return integerArbitrary(ctx, s);
    case 'number':
      return numberArbitrary(ctx, s);
    case 'string':
      return stringArbitrary(ctx, s);
    case 'array':
      return arrayArbitrary(ctx, s, depth);
    case 'object':
      return objectArbitrary(ctx, s, depth);
    default:
      ctx.notes.add(`type ${type} (unknown; null generated)`);
      return fc.constant(null);
  }
}

/** Inclusive bounds from `minimum`/`exclusiveMinimum` (draft-04 booleans too) and their maximum twins. */
export function numericBounds(s: SchemaObject): {
  min?: number;
  max?: number;
  minExcluded: boolean;
  maxExcluded: boolean;
} {
  let min = numberKeyword(s, 'minimum');
  let max = numberKeyword(s, 'maximum');
  let minExcluded = s.exclusiveMinimum === true;
  let maxExcluded = s.exclusiveMaximum === true;
  const exMin = numberKeyword(s, 'exclusiveMinimum');
  const exMax = numberKeyword(s, 'exclusiveMaximum');
  if (exMin !== undefined && (min === undefined || exMin >= min)) [min, minExcluded] = [exMin, true];
  if (exMax !== undefined && (max === undefined || exMax <= max)) [max, maxExcluded] = [exMax, true];
  return { ...(min !== undefined && { min }), ...(max !== undefined && { max }), minExcluded, maxExcluded };
}

function integerArbitrary(ctx: SchemaContext, s: SchemaObject): Arbitrary<unknown> {
  const bounds = numericBounds(s);
  let lo =
    bounds.min === undefined ? INT32_MIN : bounds.minExcluded ? Math.floor(bounds.min) + 1 : Math.ceil(bounds.min);
  let hi =
    bounds.max === undefined ? INT32_MAX : bounds.maxExcluded ? Math.ceil(bounds.max) - 1 : Math.floor(bounds.max);
  const step = numberKeyword(s, 'multipleOf');
  if (step !== undefined && Number.isInteger(step) && step > 0) {
    [lo, hi] = [Math.ceil(lo / step), Math.floor(hi / step)];
    return boundedInteger(ctx, lo, hi).map((k) => k * step);
  }
  if (step !== undefined) ctx.notes.add('multipleOf on integers with a fractional step (filtered by ajv)');
  return boundedInteger(ctx, lo, hi);
}

function boundedInteger(ctx: SchemaContext, lo: number, hi: number): Arbitrary<number> {
  const { fc } = ctx;
  if (lo > hi) {
    ctx.notes.add('integer bounds that leave no value');
    return fc.constant(lo);
  }
  if (lo >= INT32_MIN && hi <= INT32_MAX) return fc.integer({ min: lo, max: hi });
  const min = Math.max(lo, Number.MIN_SAFE_INTEGER);
  const max = Math.min(hi, Number.MAX_SAFE_INTEGER);
  return fc.maxSafeInteger().map((n) => min + (Math.abs(n) % (max - min + 1)));
}

function numberArbitrary(ctx: SchemaContext, s: SchemaObject): Arbitrary<unknown> {
  const { fc } = ctx;
  const bounds = numericBounds(s);
  if (numberKeyword(s, 'multipleOf') !== undefined) ctx.notes.add('multipleOf on numbers (filtered by ajv)');
  return fc
    .double({
      noNaN: true,
      noDefaultInfinity: true,
      ...(bounds.min !== undefined && { min: bounds.min, minExcluded: bounds.minExcluded }),
      ...(bounds.max !== undefined && { max: bounds.max, maxExcluded: bounds.maxExcluded }),
    })
    .map((n) => (Object.is(n, -0) ? 0 : n));
}

/** Valid strings for the formats real tool schemas use; others get a note and plain strings. */
function formatArbitrary(ctx: SchemaContext, format: string): Arbitrary<string> | null {
  const { fc } = ctx;
  const dates = fc
    .date({ min: new Date('1970-01-01T00:00:00.000Z'), max: new Date('2099-12-31T23:59:59.999Z'), noInvalidDate: true })
    .map((d) => d.toISOString());
  switch (format) {
    case 'email':
      return fc.emailAddress();
    case 'uri':
    case 'url':
    case 'iri':
      return fc.webUrl();
    case 'date-time':
      return dates;
    case 'date':
      return dates.map((iso) => iso.slice(0, 10));
    case 'time':
      return dates.map((iso) => iso.slice(11));
    case 'uuid':
      return fc.uuid();
    case 'ipv4':
      return fc.ipV4();
    case 'ipv6':
      return fc.ipV6();
    case 'hostname':
      return fc.domain();
    default:
      ctx.notes.add(`format ${format} (not generated; plain strings sent)`);
      return null;
  }
}

function stringArbitrary(ctx: SchemaContext, s: SchemaObject): Arbitrary<unknown> {
  const { fc } = ctx;
  const minLength = numberKeyword(s, 'minLength') ?? 0;
  const maxLength = numberKeyword(s, 'maxLength');
  const fitsLength = (v: string): boolean => {
    const length = [...v].length;
    return length >= minLength && (maxLength === undefined || length <= maxLength);
  };
  const base = typeof s.format === 'string' ? formatArbitrary(ctx, s.format) : null;
  if (typeof s.pattern === 'string') {
    const regex = patternRegex(s.pattern);
    if (regex === null) {
      ctx.notes.add(`pattern ${s.pattern} (not a JavaScript regular expression; filtered by ajv)`);
    } else {
      if (base !== null) return base.filter((v) => regex.test(v) && fitsLength(v));
      try {
        const matching = fc.stringMatching(regex);
        return minLength === 0 && maxLength === undefined ? matching : matching.filter(fitsLength);
      } catch {
        ctx.notes.add(`pattern ${s.pattern} (fast-check cannot generate it; filtered by ajv)`);
      }
    }
  }
  if (base !== null) return minLength === 0 && maxLength === undefined ? base : base.filter(fitsLength);
  return fc.string({
    minLength,
    maxLength: maxLength ?? minLength + 16,
  });
}

/** The `pattern` as ajv reads it (unicode flag), or null when JavaScript cannot compile it. */
export function patternRegex(pattern: string): RegExp | null {
  try {
    return new RegExp(pattern, 'u');
  } catch {
    return null;
  }
}

function arrayArbitrary(ctx: SchemaContext, s: SchemaObject, depth: number): Arbitrary<unknown> {
  const { fc } = ctx;
  const minLength = numberKeyword(s, 'minItems') ?? 0;
  const declaredMax = numberKeyword(s, 'maxItems');
  const maxLength =
    depth >= MAX_DEPTH ? minLength : Math.min(declaredMax ?? minLength + SPARE_ITEMS, minLength + SPARE_ITEMS);
  const tuple = Array.isArray(s.prefixItems) ? s.prefixItems : Array.isArray(s.items) ? s.items : null;
  if (tuple !== null) {
    ctx.notes.add('tuple arrays (prefixItems / items list): exactly the listed items generated');
    return fc.tuple(...(tuple as JsonSchema[]).map((item) => validArbitrary(ctx, item, depth + 1)));
  }
  const item =
    s.items === undefined
      ? fc.oneof(fc.string(), fc.integer(), fc.boolean())
      : validArbitrary(ctx, s.items as JsonSchema, depth + 1);
  if (s.uniqueItems === true) {
    return fc.uniqueArray(item, { minLength, maxLength, selector: (v) => JSON.stringify(v) });
  }
  return fc.array(item, { minLength, maxLength });
}

function objectArbitrary(ctx: SchemaContext, s: SchemaObject, depth: number): Arbitrary<unknown> {
  const { fc } = ctx;
  const properties = (typeof s.properties === 'object' && s.properties !== null ? s.properties : {}) as Record<
    string,
    JsonSchema
  >;
  const required = requiredOf(s);
  const additional = s.additionalProperties;
  const model: Record<string, Arbitrary<unknown>> = {};
  for (const [key, propertySchema] of Object.entries(properties)) {
    if (depth >= MAX_DEPTH && !required.includes(key)) continue;
    model[key] = validArbitrary(ctx, propertySchema, depth + 1);
  }
  for (const key of required) {
    model[key] ??=
      typeof additional === 'object' && additional !== null
        ? validArbitrary(ctx, additional as JsonSchema, depth + 1)
        : fc.string();
  }
  const record = fc.record(model, { requiredKeys: required.filter((key) => key in model) });
  if (typeof additional !== 'object' || additional === null || depth >= MAX_DEPTH) return record;
  const extraKey = fc
    .string({ minLength: 1, maxLength: 8 })
    .filter((key) => !(key in properties) && key !== '__proto__');
  const extras = fc.dictionary(extraKey, validArbitrary(ctx, additional as JsonSchema, depth + 1), { maxKeys: 2 });
  return fc.tuple(extras, record).map(([more, base]) => ({ ...more, ...(base as object) }));
}

/** The `required` names of an object schema. */
export function requiredOf(s: SchemaObject): string[] {
  return Array.isArray(s.required) ? s.required.filter((key): key is string => typeof key === 'string') : [];
}

/** Merges schemas (allOf, a branch with the keywords beside it): properties and required are combined. */
export function mergeAll(ctx: SchemaContext, schemas: readonly JsonSchema[]): JsonSchema {
  const merged: Record<string, unknown> = {};
  for (const part of schemas) {
    const s = asObject(dereference(ctx, part));
    for (const [key, value] of Object.entries(s)) {
      if (key === 'properties' && typeof value === 'object' && value !== null) {
        merged.properties = { ...(merged.properties as object | undefined), ...value };
      } else if (key === 'required' && Array.isArray(value)) {
        merged.required = [...new Set([...((merged.required as string[] | undefined) ?? []), ...(value as string[])])];
      } else {
        merged[key] = value;
      }
    }
  }
  return merged;
}
