import { ModelValidationError } from '../errors';
import { InProcessServer } from '../servers/InProcessServer';
import { createPagedServer, rejection, requests, type PagedMode, useKitPerTest } from '@sf-m3/test-utils/client';
import { SCHEMA_VALIDATION_FAILED } from './ToolSchemaValidator';

const paged = (mode: PagedMode): InProcessServer =>
  new InProcessServer({ name: `paged-${mode}`, factory: () => createPagedServer(mode) });

const kit = useKitPerTest({ suiteName: 'direct-client', caseId: 'case-1' });

describe('schema validation', () => {
  test('invalid arguments are rejected before anything is sent', async () => {
    const client = await kit().direct(paged('ok'), { validateSchemas: true }).connect();
    const error = await rejection(client.callTool('count', { n: 0 }));
    expect(error).toBeInstanceOf(ModelValidationError);
    expect(error.message).toBe(`${SCHEMA_VALIDATION_FAILED}: count: invalid_arguments: /n must be >= 1 (minimum)`);
    expect((error as ModelValidationError).details).toMatchObject({ tool: 'count', kind: 'invalid_arguments' });
    expect((await client.callTool('count', { n: 2 })).content[0]).toMatchObject({ text: 'count 2' });
    await client.close();
    const events = client.finalTrace!.events;
    expect(requests(events, 'tools/call')).toHaveLength(1);
    // The tool list is fetched once (two pages) and cached for the connection.
    expect(requests(events, 'tools/list')).toHaveLength(2);
    expect(client.result?.snapshot.outcome).toBe('failed');
  });

  test('a structured result that breaks the output schema is invalid_result', async () => {
    const client = await kit().direct(paged('ok'), { validateSchemas: true }).connect();
    const error = await rejection(client.callTool('liar'));
    expect(error).toBeInstanceOf(ModelValidationError);
    expect((error as ModelValidationError).details).toMatchObject({ tool: 'liar', kind: 'invalid_result' });
    expect(JSON.stringify((error as ModelValidationError).details)).not.toContain('not-a-number');
    await client.close();
  });

  test('without validateSchemas nothing is validated', async () => {
    const client = await kit().direct(paged('ok')).connect();
    expect((await client.callTool('liar')).structuredContent).toEqual({ sum: 'not-a-number' });
    expect((await client.callTool('count', { n: 0 })).isError).toBe(false);
    await client.close();
    expect(requests(client.finalTrace!.events, 'tools/list')).toHaveLength(0);
  });

  test('a schema that does not compile is invalid_schema, and listing it still works', async () => {
    const client = await kit().direct(paged('broken-schema'), { validateSchemas: true }).connect();
    expect((await client.listAllTools()).map((t) => t.name)).toEqual(['count', 'liar']);
    const error = await rejection(client.callTool('liar'));
    expect(error).toBeInstanceOf(ModelValidationError);
    expect((error as ModelValidationError).details).toMatchObject({ tool: 'liar', kind: 'invalid_schema' });
    await client.close();
  });
});
