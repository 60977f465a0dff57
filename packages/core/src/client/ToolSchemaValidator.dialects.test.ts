// Dialect choice by `$schema`: the official SDK's zod schemas declare draft-07, which the 2020-12
// validator alone cannot compile (issue 10 item 5).
import { caught } from './caughtValidation.testkit';
import { SCHEMA_VALIDATION_FAILED, ToolSchemaValidator } from './ToolSchemaValidator';

const tool = (name: string, inputSchema: unknown) => ({ name, inputSchema });

describe('ToolSchemaValidator dialects', () => {
  test.each([
    ['http://json-schema.org/draft-07/schema#'],
    ['https://json-schema.org/draft-07/schema'],
    ['https://json-schema.org/draft/2019-09/schema'],
    ['https://json-schema.org/draft/2020-12/schema'],
    ['http://json-schema.org/draft/2020-12/schema#'],
  ])('a schema declaring %s validates', ($schema) => {
    const v = new ToolSchemaValidator();
    const t = tool('named', {
      $schema,
      type: 'object',
      properties: { path: { type: 'string' } },
      required: ['path'],
    });
    expect(() => v.validateArguments(t, { path: 'a.txt' })).not.toThrow();
    const error = caught(() => v.validateArguments(t, { path: 7 }));
    expect(error.message).toBe(`${SCHEMA_VALIDATION_FAILED}: named: invalid_arguments: /path must be string (type)`);
  });

  test('draft-07 semantics: array-form items is a tuple and definitions resolve', () => {
    const v = new ToolSchemaValidator();
    const t = tool('tuple07', {
      $schema: 'http://json-schema.org/draft-07/schema#',
      definitions: { word: { type: 'string' } },
      type: 'array',
      items: [{ $ref: '#/definitions/word' }, { type: 'number' }],
      additionalItems: false,
    });
    expect(() => v.validateArguments(t, ['a', 1])).not.toThrow();
    expect(caught(() => v.validateArguments(t, ['a', 1, 2])).details).toMatchObject({
      kind: 'invalid_arguments',
      errors: [expect.objectContaining({ keyword: 'additionalItems' })],
    });
  });

  test('2019-09 semantics: $defs and unevaluatedProperties', () => {
    const v = new ToolSchemaValidator();
    const t = tool('closed2019', {
      $schema: 'https://json-schema.org/draft/2019-09/schema',
      $defs: { id: { type: 'string' } },
      allOf: [{ properties: { id: { $ref: '#/$defs/id' } } }],
      unevaluatedProperties: false,
    });
    expect(() => v.validateArguments(t, { id: 'x' })).not.toThrow();
    expect(caught(() => v.validateArguments(t, { id: 'x', extra: 1 })).details).toMatchObject({
      errors: [expect.objectContaining({ keyword: 'unevaluatedProperties' })],
    });
  });

  test('an unknown $schema is invalid_schema with a message that says which dialects work', () => {
    const v = new ToolSchemaValidator();
    const t = tool('old', { $schema: 'http://json-schema.org/draft-04/schema#', type: 'object' });
    const error = caught(() => v.validateArguments(t, {}));
    expect(error.details).toMatchObject({ tool: 'old', kind: 'invalid_schema' });
    expect(error.message).toContain(`${SCHEMA_VALIDATION_FAILED}: old: invalid_schema: `);
    expect(error.message).toContain('draft-04');
    expect(error.message).toContain('draft-07, 2019-09 or 2020-12');
    const nonString = caught(() => v.validateArguments(tool('odd', { $schema: 3 }), {}));
    expect(nonString.details).toMatchObject({ kind: 'invalid_schema' });
  });

  test('schemas of different dialects share nothing but each compiles once', () => {
    const v = new ToolSchemaValidator();
    const a = tool('a', { $schema: 'http://json-schema.org/draft-07/schema#', type: 'string' });
    const b = tool('b', { type: 'number' });
    for (let i = 0; i < 3; i += 1) {
      v.validateArguments(a, 'x');
      v.validateArguments(b, 1);
    }
    expect(v.compiledSchemas).toBe(2);
  });
});
