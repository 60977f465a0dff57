import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { createMathServer } from './mathServer';
import { connectInMemory, firstText, structured } from './servers.testkit';

describe('math server (in-process)', () => {
  let client: Client;

  beforeAll(async () => {
    client = await connectInMemory(createMathServer());
  });
  afterAll(async () => {
    await client.close();
  });

  test('identifies itself and lists ten tools in one page', async () => {
    expect(client.getServerVersion()).toEqual({ name: 'm3-math-server', version: '1.0.0' });
    const listed = await client.listTools();
    expect(listed.nextCursor).toBeUndefined();
    expect(listed.tools.map((t) => t.name)).toEqual([
      'add_tool',
      'subtract_tool',
      'multiply_tool',
      'divide_tool',
      'power_tool',
      'modulo_tool',
      'average_tool',
      'min_tool',
      'max_tool',
      'sqrt_tool',
    ]);
    const add = listed.tools[0]!;
    expect(add.description).toBe('Add two numbers.');
    expect(add.inputSchema).toEqual({
      type: 'object',
      properties: { a: { type: 'number' }, b: { type: 'number' } },
      required: ['a', 'b'],
      additionalProperties: false,
    });
    expect(listed.tools.find((t) => t.name === 'average_tool')!.inputSchema.properties).toEqual({
      values: { type: 'array', items: { type: 'number' }, minItems: 1 },
    });
    expect(listed.tools.every((t) => t.outputSchema === undefined)).toBe(true);
  });

  test.each([
    ['add_tool', { a: 2, b: 3 }, 5],
    ['subtract_tool', { a: 2, b: 3 }, -1],
    ['multiply_tool', { a: 6, b: 7 }, 42],
    ['divide_tool', { a: 7, b: 2 }, 3.5],
    ['power_tool', { a: 2, b: 10 }, 1024],
    ['modulo_tool', { a: -7, b: 3 }, 2],
    ['average_tool', { values: [1, 2, 3, 4] }, 2.5],
    ['min_tool', { values: [4, -1, 9] }, -1],
    ['max_tool', { values: [4, -1, 9] }, 9],
    ['sqrt_tool', { value: 81 }, 9],
  ])('%s(%j) = %p', async (name, args, expected) => {
    const result = await client.callTool({ name, arguments: args });
    expect(result.isError).toBeFalsy();
    expect(structured(result)).toEqual({ result: expected });
    expect(firstText(result)).toBe(JSON.stringify({ result: expected }));
  });

  test.each([
    ['divide_tool', { a: 1, b: 0 }, 'invalid arithmetic request: division by zero'],
    ['modulo_tool', { a: 1, b: 0 }, 'invalid arithmetic request: modulo by zero'],
    ['sqrt_tool', { value: -4 }, 'invalid arithmetic request: math domain error'],
    ['power_tool', { a: 10, b: 400 }, 'invalid arithmetic request: numerical result out of range'],
    ['nope_tool', {}, 'unknown tool: nope_tool'],
  ])('%s(%j) is a tool error: %s', async (name, args, message) => {
    const result = await client.callTool({ name, arguments: args });
    expect(result).toEqual({ content: [{ type: 'text', text: message }], isError: true });
  });

  test('missing or mistyped arguments are arithmetic request errors', async () => {
    const missing = await client.callTool({ name: 'add_tool', arguments: { a: 1 } });
    expect(missing.isError).toBe(true);
    expect(firstText(missing)).toMatch(/^invalid arithmetic request: b:/);
    const empty = await client.callTool({ name: 'average_tool', arguments: { values: [] } });
    expect(firstText(empty)).toMatch(/^invalid arithmetic request: values:/);
  });
});
