import type { Arbitrary } from 'fast-check';
import { asObject, type JsonSchema, MAX_DEPTH, numberKeyword, type SchemaContext, typesOf } from './SchemaContext';
import { dereference, mergeAll, numericBounds, requiredOf, validArbitrary } from './validArbitrary';

type SchemaObject = { readonly [keyword: string]: unknown };

/** One value of each JSON type, the stock of type violations. */
const SAMPLES: ReadonlyArray<readonly [type: string, value: unknown]> = [
  ['string', 'm3-fuzz'],
  ['integer', 7],
  ['number', 2.5],
  ['boolean', true],
  ['null', null],
  ['array', []],
  ['object', {}],
];

/** A property name no schema is likely to declare, sent when `additionalProperties` is false. */
export const EXTRA_PROPERTY = 'm3FuzzUnexpected';

/**
 * An arbitrary of tool arguments that break `schema` (contract §25), or null when nothing can be
 * broken (e.g. `{ type: 'object' }` with no properties). Arguments stay a JSON object, as MCP
 * requires; the violations are inside it: a required property missing, an unexpected property when
 * `additionalProperties` is false, or one property's value invalid (wrong type, out of range, an
 * enum outsider, too short/long, not matching its pattern, too few/many items), at any depth.
 */
export function invalidArguments(ctx: SchemaContext, schema: JsonSchema): Arbitrary<unknown> | null {
  const s = withAllOfMerged(ctx, asObject(dereference(ctx, schema)));
  const choices = objectViolations(ctx, s, 0);
  return choices.length === 0 ? null : ctx.fc.oneof(...choices);
}

/** An arbitrary of values that break `schema`, or null when every value fits it. */
export function invalidArbitrary(ctx: SchemaContext, schema: JsonSchema, depth: number): Arbitrary<unknown> | null {
  const { fc } = ctx;
  if (depth > MAX_DEPTH) return null;
  const resolved = dereference(ctx, schema);
  if (resolved === true) return null;
  if (resolved === false) return fc.constant('m3-fuzz');
  const s = withAllOfMerged(ctx, asObject(resolved));
  const choices: Array<Arbitrary<unknown>> = [];
  const allowed = allowedValues(s);
  if (allowed !== null) {
    const outside = SAMPLES.map(([, value]) => value)
      .concat(['m3-fuzz-not-in-enum', -1, 0])
      .filter((value) => !allowed.some((a) => JSON.stringify(a) === JSON.stringify(value)));
    if (outside.length > 0) choices.push(fc.constantFrom(...outside));
    return choices.length === 0 ? null : fc.oneof(...choices);
  }
  const types = typesOf(s) ?? unionTypes(ctx, s);
  if (types !== null) {
    const wrong = SAMPLES.filter(
      ([type]) => !types.includes(type) && !(type === 'integer' && types.includes('number')),
    ).map(([, value]) => value);
    if (wrong.length > 0) choices.push(fc.constantFrom(...wrong));
    if (types.includes('integer') || types.includes('number')) choices.push(...numberViolations(ctx, s, types));
    if (types.includes('string')) choices.push(...stringViolations(ctx, s));
    if (types.includes('array')) choices.push(...arrayViolations(ctx, s, depth));
    if (types.includes('object')) choices.push(...objectViolations(ctx, s, depth));
  }
  return choices.length === 0 ? null : fc.oneof(...choices);
}

/** An `allOf` folded into one schema, as the valid generator reads it. */
function withAllOfMerged(ctx: SchemaContext, s: SchemaObject): SchemaObject {
  if (!Array.isArray(s.allOf) || s.allOf.length === 0) return s;
  const { allOf, ...rest } = s;
  return asObject(mergeAll(ctx, [rest, ...(allOf as JsonSchema[])]));
}

/** The values an `enum` or `const` allows, or null when the schema has neither. */
function allowedValues(s: SchemaObject): unknown[] | null {
  if ('const' in s) return [s.const];
  if (Array.isArray(s.enum) && s.enum.length > 0) return s.enum as unknown[];
  return null;
}

/** The JSON types an `anyOf`/`oneOf` allows when every branch names its types. */
function unionTypes(ctx: SchemaContext, s: SchemaObject): string[] | null {
  const branches = Array.isArray(s.anyOf) ? s.anyOf : Array.isArray(s.oneOf) ? s.oneOf : null;
  if (branches === null) return null;
  const types = new Set<string>();
  for (const branch of branches as JsonSchema[]) {
    const branchTypes = typesOf(asObject(dereference(ctx, branch)));
    if (branchTypes === null) return null;
    for (const type of branchTypes) types.add(type);
  }
  // Only type violations are generated for a union: its branches' own limits are not crossed.
  return [...types];
}

function numberViolations(ctx: SchemaContext, s: SchemaObject, types: string[]): Array<Arbitrary<unknown>> {
  const { fc } = ctx;
  const out: Array<Arbitrary<unknown>> = [];
  if (!('anyOf' in s) && !('oneOf' in s)) {
    const bounds = numericBounds(s);
    if (bounds.min !== undefined) {
      const edge = bounds.minExcluded ? bounds.min : bounds.min - 1;
      out.push(fc.constantFrom(edge, bounds.min - 1000));
    }
    if (bounds.max !== undefined) {
      const edge = bounds.maxExcluded ? bounds.max : bounds.max + 1;
      out.push(fc.constantFrom(edge, bounds.max + 1000));
    }
  }
  if (types.includes('integer') && !types.includes('number')) {
    out.push(fc.integer({ min: -1000, max: 1000 }).map((n) => n + 0.5));
  }
  return out;
}

function stringViolations(ctx: SchemaContext, s: SchemaObject): Array<Arbitrary<unknown>> {
  const { fc } = ctx;
  if ('anyOf' in s || 'oneOf' in s) return [];
  const out: Array<Arbitrary<unknown>> = [];
  const minLength = numberKeyword(s, 'minLength');
  const maxLength = numberKeyword(s, 'maxLength');
  if (minLength !== undefined && minLength > 0) out.push(fc.string({ maxLength: minLength - 1 }));
  if (maxLength !== undefined) out.push(fc.string({ minLength: maxLength + 1, maxLength: maxLength + 8 }));
  if (typeof s.pattern === 'string') {
    // Strings that miss the pattern; the ones that happen to match are dropped by ajv's check.
    out.push(fc.oneof(fc.constantFrom('', ' ', '%%', '\n', 'm3 fuzz'), fc.string({ maxLength: 8 })));
  }
  return out;
}

function arrayViolations(ctx: SchemaContext, s: SchemaObject, depth: number): Array<Arbitrary<unknown>> {
  const { fc } = ctx;
  if ('anyOf' in s || 'oneOf' in s || Array.isArray(s.items) || Array.isArray(s.prefixItems)) return [];
  const out: Array<Arbitrary<unknown>> = [];
  const items = s.items === undefined ? true : (s.items as JsonSchema);
  const item = validArbitrary(ctx, items, depth + 1);
  const minItems = numberKeyword(s, 'minItems');
  const maxItems = numberKeyword(s, 'maxItems');
  if (minItems !== undefined && minItems > 0) out.push(fc.array(item, { maxLength: minItems - 1 }));
  if (maxItems !== undefined) out.push(fc.array(item, { minLength: maxItems + 1, maxLength: maxItems + 3 }));
  const badItem = invalidArbitrary(ctx, items, depth + 1);
  if (badItem !== null) {
    const length = Math.max(1, minItems ?? 1);
    out.push(
      fc
        .tuple(fc.array(item, { minLength: length - 1, maxLength: length - 1 }), badItem, fc.nat())
        .map(([rest, bad, at]) => {
          const copy = [...rest];
          copy.splice(at % (copy.length + 1), 0, bad);
          return copy;
        }),
    );
  }
  if (s.uniqueItems === true && (maxItems === undefined || maxItems >= 2)) {
    out.push(item.map((value) => [value, value]));
  }
  return out;
}

function objectViolations(ctx: SchemaContext, s: SchemaObject, depth: number): Array<Arbitrary<unknown>> {
  const { fc } = ctx;
  if ('anyOf' in s || 'oneOf' in s) return [];
  const valid = validArbitrary(ctx, s, depth) as Arbitrary<Record<string, unknown>>;
  const out: Array<Arbitrary<unknown>> = [];
  const required = requiredOf(s);
  if (required.length > 0) {
    out.push(
      fc.tuple(valid, fc.constantFrom(...required)).map(([value, missing]) => {
        const { [missing]: _dropped, ...rest } = value;
        return rest;
      }),
    );
  }
  const properties = (typeof s.properties === 'object' && s.properties !== null ? s.properties : {}) as Record<
    string,
    JsonSchema
  >;
  if (s.additionalProperties === false && !(EXTRA_PROPERTY in properties)) {
    out.push(valid.map((value) => ({ ...value, [EXTRA_PROPERTY]: 'm3-fuzz' })));
  }
  if (typeof s.additionalProperties === 'object' && s.additionalProperties !== null) {
    const bad = invalidArbitrary(ctx, s.additionalProperties as JsonSchema, depth + 1);
    if (bad !== null && !(EXTRA_PROPERTY in properties)) {
      out.push(fc.tuple(valid, bad).map(([value, extra]) => ({ ...value, [EXTRA_PROPERTY]: extra })));
    }
  }
  const broken: Array<Arbitrary<unknown>> = [];
  for (const [key, propertySchema] of Object.entries(properties)) {
    const bad = invalidArbitrary(ctx, propertySchema, depth + 1);
    if (bad !== null) broken.push(fc.tuple(valid, bad).map(([value, badValue]) => ({ ...value, [key]: badValue })));
  }
  if (broken.length > 0) out.push(fc.oneof(...broken));
  return out;
}
