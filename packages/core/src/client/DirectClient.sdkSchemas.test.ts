// `validateSchemas: true` against a server built with the official SDK and zod (draft-07 schemas),
// in process and over stdio: valid calls pass and their results validate; invalid ones are refused
// before anything is sent, with the tool, kind, path and keyword in the message (issue 10 item 5).
import { join } from 'node:path';
import { ModelValidationError } from '../errors';
import { InProcessServer } from '../servers/InProcessServer';
import type { ServerDefinition } from '../servers/ServerDefinition';
import { StdioServer } from '../servers/StdioServer';
import { rejection, requests, useKitPerTest } from '@sf-m3/test-utils/client';
import { SCHEMA_VALIDATION_FAILED } from './ToolSchemaValidator';

const SCHEMA_SERVER = join(__dirname, '__fixtures__', 'sdk-schema-server.js');
const { createSchemaServer } = require(SCHEMA_SERVER) as { createSchemaServer: InProcessServer['factory'] };

const kit = useKitPerTest({ suiteName: 'sdk-schemas' });

const servers: Array<[string, () => ServerDefinition]> = [
  ['in process', () => new InProcessServer({ name: 'sdk-schema', factory: createSchemaServer })],
  ['stdio', () => new StdioServer({ name: 'sdk-schema', command: process.execPath, args: [SCHEMA_SERVER] })],
];

const validOrder = {
  customer: { name: 'Ada' },
  lines: [
    { sku: 'A-1', qty: 2, options: [{ key: 'colour', value: 'red' }] },
    { sku: 'B-2', qty: 1 },
  ],
  priority: 'high',
};

describe.each(servers)('validateSchemas against an SDK-built server (%s)', (_label, server) => {
  test('the SDK publishes draft-07 schemas, and valid calls pass both ways', async () => {
    const client = await kit().direct(server(), { validateSchemas: true, timeoutMs: 20_000 }).connect();
    const tools = await client.listAllTools();
    expect(tools.find((t) => t.name === 'place_order')?.inputSchema).toMatchObject({
      $schema: 'http://json-schema.org/draft-07/schema#',
    });
    const order = await client.callTool<{ orderId: string; priority: string }>('place_order', validOrder);
    expect(order.isError).toBe(false);
    expect(order.structuredContent).toMatchObject({ orderId: 'order-2', priority: 'high' });
    const minimal = await client.callTool('place_order', { customer: { name: 'Bo' }, lines: [{ sku: 'C', qty: 1 }] });
    expect(minimal.structuredContent).toMatchObject({ priority: 'normal' });
    const written = await client.callTool('write_file', { path: 'a.txt', content: 'hi', mode: 'append' });
    expect(written.content).toEqual([{ type: 'text', text: 'wrote 2 bytes to a.txt' }]);
    await client.close();
    expect(requests(client.finalTrace!.events, 'tools/call')).toHaveLength(3);
    expect(client.result?.snapshot.outcome).toBe('completed');
  }, 30_000);

  test.each([
    [
      'a number for a string',
      'write_file',
      { path: 7, content: 'x' },
      'write_file: invalid_arguments: /path must be string (type)',
    ],
    [
      'a string quantity in an array of objects',
      'place_order',
      {
        ...validOrder,
        lines: [
          { sku: 'A', qty: 1 },
          { sku: 'B', qty: 'two' },
        ],
      },
      'place_order: invalid_arguments: /lines/1/qty must be integer (type)',
    ],
    [
      'a missing field two arrays deep',
      'place_order',
      { ...validOrder, lines: [{ sku: 'A', qty: 1, options: [{ key: 'k' }] }] },
      "place_order: invalid_arguments: /lines/0/options/0 must have required property 'value' (required)",
    ],
    [
      'a value outside an enum',
      'place_order',
      { ...validOrder, priority: 'urgent-secret-value' },
      'place_order: invalid_arguments: /priority must be equal to one of the allowed values (enum)',
    ],
    ['a missing object and an empty array', 'place_order', { lines: [] }, 'place_order: invalid_arguments: '],
  ])(
    '%s is refused before sending',
    async (_case, tool, args, expected) => {
      const client = await kit().direct(server(), { validateSchemas: true, timeoutMs: 20_000 }).connect();
      const error = await rejection(client.callTool(tool, args));
      expect(error).toBeInstanceOf(ModelValidationError);
      expect(error.message.startsWith(`${SCHEMA_VALIDATION_FAILED}: ${expected}`)).toBe(true);
      expect(error.message).not.toContain('urgent-secret-value');
      expect(JSON.stringify((error as ModelValidationError).details)).not.toContain('urgent-secret-value');
      expect((error as ModelValidationError).details).toMatchObject({ tool, kind: 'invalid_arguments' });
      await client.close();
      expect(requests(client.finalTrace!.events, 'tools/call')).toHaveLength(0);
    },
    30_000,
  );
});
