import { caught } from './caughtValidation.testkit';
import { SCHEMA_VALIDATION_FAILED, ToolSchemaValidator } from './ToolSchemaValidator';

const quote = {
  name: 'shipping_quote',
  inputSchema: {
    type: 'object',
    properties: {
      weight_kg: { type: 'number', exclusiveMinimum: 0 },
      zone: { type: 'string', enum: ['local', 'regional', 'international'] },
    },
    required: ['weight_kg', 'zone'],
  },
  outputSchema: {
    type: 'object',
    properties: { amount: { type: 'number' }, currency: { const: 'USD' } },
    required: ['amount', 'currency'],
  },
};

describe('ToolSchemaValidator', () => {
  test('accepts arguments and results that fit', () => {
    const v = new ToolSchemaValidator();
    expect(() => v.validateArguments(quote, { weight_kg: 2, zone: 'local' })).not.toThrow();
    expect(() => v.validateResult(quote, { amount: 9, currency: 'USD' }, false)).not.toThrow();
  });

  test('rejects bad arguments with paths and keywords but no data values', () => {
    const v = new ToolSchemaValidator();
    const error = caught(() => v.validateArguments(quote, { weight_kg: -1, zone: 'secret-zone-value' }));
    expect(error.message).toBe(
      `${SCHEMA_VALIDATION_FAILED}: shipping_quote: invalid_arguments: /weight_kg must be > 0 (exclusiveMinimum) (and 1 more)`,
    );
    expect(error.message).not.toContain('secret-zone-value');
    expect(error.details).toMatchObject({ tool: 'shipping_quote', kind: 'invalid_arguments' });
    const errors = error.details.errors as Array<Record<string, string>>;
    expect(errors.map((e) => e.instancePath).sort()).toEqual(['/weight_kg', '/zone']);
    expect(errors.map((e) => e.keyword).sort()).toEqual(['enum', 'exclusiveMinimum']);
    expect(JSON.stringify(error.details)).not.toContain('secret-zone-value');
    expect(JSON.stringify(error.details)).not.toContain('-1');
  });

  test('rejects a missing required property', () => {
    const v = new ToolSchemaValidator();
    const error = caught(() => v.validateArguments(quote, { weight_kg: 1 }));
    expect(error.details.errors).toEqual([expect.objectContaining({ keyword: 'required', instancePath: '' })]);
    expect(error.message).toBe(
      `${SCHEMA_VALIDATION_FAILED}: shipping_quote: invalid_arguments: must have required property 'zone' (required)`,
    );
  });

  test('rejects a structured result that does not fit, and a missing one', () => {
    const v = new ToolSchemaValidator();
    const wrong = caught(() => v.validateResult(quote, { amount: 'nine', currency: 'EUR' }, false));
    expect(wrong.details).toMatchObject({ kind: 'invalid_result' });
    expect(JSON.stringify(wrong.details)).not.toContain('EUR');
    const missing = caught(() => v.validateResult(quote, undefined, false));
    expect(missing.details).toMatchObject({ kind: 'invalid_result' });
  });

  test('does not validate the result of a tool error', () => {
    const v = new ToolSchemaValidator();
    expect(() => v.validateResult(quote, undefined, true)).not.toThrow();
  });

  test('follows local $ref and refuses remote ones', () => {
    const v = new ToolSchemaValidator();
    const local = {
      name: 'local_ref',
      inputSchema: {
        type: 'object',
        $defs: { positive: { type: 'integer', minimum: 1 } },
        properties: { n: { $ref: '#/$defs/positive' } },
      },
    };
    expect(() => v.validateArguments(local, { n: 3 })).not.toThrow();
    expect(caught(() => v.validateArguments(local, { n: 0 })).details).toMatchObject({ kind: 'invalid_arguments' });

    const remote = {
      name: 'remote_ref',
      inputSchema: { type: 'object', properties: { n: { $ref: 'https://example.com/schema.json' } } },
    };
    const error = caught(() => v.validateArguments(remote, { n: 1 }));
    expect(error.details).toMatchObject({ kind: 'invalid_schema' });
    expect(JSON.stringify(error.details)).toContain('not local');
  });

  test('reports a schema that does not compile as invalid_schema', () => {
    const v = new ToolSchemaValidator();
    const bad = { name: 'bad', inputSchema: { type: 'not-a-type' } };
    expect(caught(() => v.validateArguments(bad, {})).details).toMatchObject({ kind: 'invalid_schema' });
    const notObject = { name: 'bad2', inputSchema: 42 };
    expect(caught(() => v.validateArguments(notObject, {})).details).toMatchObject({ kind: 'invalid_schema' });
  });

  test('uses draft 2020-12 semantics (prefixItems)', () => {
    const v = new ToolSchemaValidator();
    const tuple = {
      name: 'tuple',
      inputSchema: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'number' }], items: false },
    };
    expect(() => v.validateArguments(tuple, ['a', 1])).not.toThrow();
    expect(() => v.validateArguments(tuple, ['a', 1, 2])).toThrow(SCHEMA_VALIDATION_FAILED);
  });

  test('compiles each schema once, also when an equal schema arrives as a new object', () => {
    const v = new ToolSchemaValidator();
    v.validateArguments(quote, { weight_kg: 1, zone: 'local' });
    v.validateArguments(quote, { weight_kg: 2, zone: 'local' });
    const relisted = JSON.parse(JSON.stringify(quote)) as typeof quote;
    v.validateArguments(relisted, { weight_kg: 3, zone: 'local' });
    expect(v.compiledSchemas).toBe(1);
    v.validateResult(quote, { amount: 1, currency: 'USD' }, false);
    expect(v.compiledSchemas).toBe(2);
  });

  test('two schemas with the same $id do not collide', () => {
    const v = new ToolSchemaValidator();
    const a = { name: 'a', inputSchema: { $id: 'urn:example:shared', type: 'string' } };
    const b = { name: 'b', inputSchema: { $id: 'urn:example:shared', type: 'number' } };
    expect(() => v.validateArguments(a, 'text')).not.toThrow();
    expect(() => v.validateArguments(b, 5)).not.toThrow();
    expect(() => v.validateArguments(b, 'text')).toThrow(SCHEMA_VALIDATION_FAILED);
  });

  test('a tool without schemas is not validated', () => {
    const v = new ToolSchemaValidator();
    expect(() => v.validateArguments({ name: 'free' }, { anything: true })).not.toThrow();
    expect(() => v.validateResult({ name: 'free' }, 'x', false)).not.toThrow();
  });
});
