import fc from 'fast-check';
import { ToolSchemaValidator } from '../../client/ToolSchemaValidator';
import { inputArbitraries } from './inputArbitraries';

const validator = new ToolSchemaValidator();
const SAMPLES = 300;

function fits(schema: object, value: unknown): boolean {
  try {
    validator.validateArguments({ name: 'tool', inputSchema: schema }, value);
    return true;
  } catch {
    return false;
  }
}

/** The inputs that break `schema` among `values`, for a readable failure. */
function misfits(schema: object, values: unknown[], expectValid: boolean): unknown[] {
  return values.filter((value) => fits(schema, value) !== expectValid).slice(0, 3);
}

// One schema per feature the generators honour (contract §25); each must give only valid
// "valid" inputs and only invalid "invalid" inputs, as ajv (contract §4) judges them.
const SCHEMAS: Record<string, object> = {
  'nested objects and required': {
    type: 'object',
    properties: {
      user: {
        type: 'object',
        properties: { name: { type: 'string', minLength: 1 }, age: { type: 'integer', minimum: 0, maximum: 150 } },
        required: ['name'],
        additionalProperties: false,
      },
    },
    required: ['user'],
  },
  'arrays with items and min/maxItems': {
    type: 'object',
    properties: { tags: { type: 'array', items: { type: 'string', maxLength: 5 }, minItems: 1, maxItems: 3 } },
    required: ['tags'],
  },
  'unique items': {
    type: 'object',
    properties: {
      ids: { type: 'array', items: { type: 'integer', minimum: 0, maximum: 3 }, uniqueItems: true, maxItems: 3 },
    },
    required: ['ids'],
  },
  'enum and const': {
    type: 'object',
    properties: { color: { enum: ['red', 'green'] }, kind: { const: 'fixed' } },
    required: ['color', 'kind'],
  },
  'anyOf and oneOf': {
    type: 'object',
    properties: {
      id: {
        anyOf: [
          { type: 'string', minLength: 2 },
          { type: 'integer', minimum: 10 },
        ],
      },
      mode: { oneOf: [{ type: 'boolean' }, { type: 'null' }] },
    },
    required: ['id', 'mode'],
  },
  'string lengths': {
    type: 'object',
    properties: { code: { type: 'string', minLength: 3, maxLength: 6 } },
    required: ['code'],
  },
  pattern: {
    type: 'object',
    properties: { sku: { type: 'string', pattern: '^[A-Z]{3}-\\d{2,4}$' } },
    required: ['sku'],
  },
  'numeric bounds, exclusive and integer': {
    type: 'object',
    properties: {
      weight: { type: 'number', exclusiveMinimum: 0, maximum: 70 },
      count: { type: 'integer', minimum: 1, exclusiveMaximum: 10 },
      step: { type: 'integer', multipleOf: 5, minimum: 0, maximum: 100 },
    },
    required: ['weight', 'count', 'step'],
  },
  'additionalProperties false': {
    type: 'object',
    properties: { a: { type: 'string' } },
    additionalProperties: false,
  },
  'additionalProperties schema': {
    type: 'object',
    additionalProperties: { type: 'number', minimum: 0 },
  },
  'nullable type list': {
    type: 'object',
    properties: { note: { type: ['string', 'null'] } },
    required: ['note'],
  },
  'local $ref to $defs': {
    type: 'object',
    $defs: {
      point: { type: 'object', properties: { x: { type: 'number' }, y: { type: 'number' } }, required: ['x', 'y'] },
    },
    properties: { from: { $ref: '#/$defs/point' }, to: { $ref: '#/$defs/point' } },
    required: ['from'],
  },
  'local $ref to definitions (draft-07, recursive)': {
    $schema: 'http://json-schema.org/draft-07/schema#',
    type: 'object',
    definitions: {
      node: {
        type: 'object',
        properties: { value: { type: 'integer' }, children: { type: 'array', items: { $ref: '#/definitions/node' } } },
        required: ['value'],
      },
    },
    properties: { tree: { $ref: '#/definitions/node' } },
    required: ['tree'],
  },
  'allOf merged': {
    type: 'object',
    allOf: [
      { properties: { a: { type: 'string' } }, required: ['a'] },
      { properties: { b: { type: 'boolean' } }, required: ['b'] },
    ],
  },
  'official SDK shape (zod, draft-07)': {
    $schema: 'http://json-schema.org/draft-07/schema#',
    type: 'object',
    properties: { path: { type: 'string' }, depth: { type: 'number', default: 1 } },
    required: ['path'],
    additionalProperties: false,
  },
};

describe('inputArbitraries: generated inputs, judged by ajv', () => {
  for (const [feature, schema] of Object.entries(SCHEMAS)) {
    test(`${feature}: valid inputs validate, invalid ones do not`, () => {
      const arbitraries = inputArbitraries(schema);
      const valid = fc.sample(arbitraries.valid, { numRuns: SAMPLES, seed: 42 });
      expect(misfits(schema, valid, true)).toEqual([]);
      expect(arbitraries.invalid).not.toBeNull();
      const invalid = fc.sample(arbitraries.invalid!, { numRuns: SAMPLES, seed: 42 });
      expect(misfits(schema, invalid, false)).toEqual([]);
      // Every generated argument set is a JSON object, as MCP requires.
      expect(invalid.every((v) => typeof v === 'object' && v !== null && !Array.isArray(v))).toBe(true);
    });
  }

  test('invalid inputs cover each kind of violation the schema allows', () => {
    const schema = SCHEMAS['numeric bounds, exclusive and integer'];
    const invalid = fc.sample(inputArbitraries(schema).invalid!, { numRuns: SAMPLES, seed: 7 });
    const keywords = new Set<string>();
    for (const value of invalid) {
      try {
        validator.validateArguments({ name: 'tool', inputSchema: schema }, value);
      } catch (error) {
        for (const e of (error as { details: { errors: Array<{ keyword: string }> } }).details.errors)
          keywords.add(e.keyword);
      }
    }
    expect([...keywords].sort()).toEqual(
      expect.arrayContaining(['exclusiveMaximum', 'exclusiveMinimum', 'maximum', 'minimum', 'required', 'type']),
    );
  });

  test('formats: email, uri, date-time, date and uuid strings have their shape', () => {
    const schema = {
      type: 'object',
      properties: {
        email: { type: 'string', format: 'email' },
        site: { type: 'string', format: 'uri' },
        at: { type: 'string', format: 'date-time' },
        day: { type: 'string', format: 'date' },
        id: { type: 'string', format: 'uuid' },
      },
      required: ['email', 'site', 'at', 'day', 'id'],
    };
    for (const value of fc.sample(inputArbitraries(schema).valid, { numRuns: 100, seed: 3 })) {
      const v = value as Record<string, string>;
      expect(v.email).toMatch(/^[^@\s]+@[^@\s]+$/);
      expect(() => new URL(v.site)).not.toThrow();
      expect(new Date(v.at).toISOString()).toBe(v.at);
      expect(v.day).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(v.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    }
  });

  test('unsupported keywords are noted, not thrown (not, if/then, patternProperties)', () => {
    const schema = {
      type: 'object',
      properties: { a: { type: 'string', not: { const: 'x' } } },
      patternProperties: { '^x-': { type: 'string' } },
      if: { required: ['a'] },
      then: { required: ['b'] },
    };
    const { notes, valid } = inputArbitraries(schema);
    expect(notes).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^not /),
        expect.stringMatching(/^patternProperties /),
        expect.stringMatching(/^if /),
      ]),
    );
    expect(fc.sample(valid, 5)).toHaveLength(5);
  });

  test('a schema with nothing to break has no invalid generator', () => {
    expect(inputArbitraries({ type: 'object' }).invalid).toBeNull();
    expect(inputArbitraries(undefined).invalid).toBeNull();
  });
});
