import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ModelValidationError } from '../errors';
import { InProcessServer } from '../servers/InProcessServer';
import { checkCapabilities, declaredCapabilities } from './clientCapabilities';
import { requests, useKitPerTest } from '@sf-m3/test-utils/client';

/** The text of a text content block (the profile tool answers with one). */
function textOf(block: unknown): string {
  const { type, text } = block as { type?: unknown; text?: unknown };
  if (type !== 'text' || typeof text !== 'string')
    throw new Error(`expected a text block, got ${JSON.stringify(block)}`);
  return text;
}

/** Asks for a form whose optional fields all have defaults, then (tool `link`) a URL-mode elicitation. */
function createElicitingServer(): McpServer {
  const mcp = new McpServer({ name: 'eliciting', version: '1.0.0' });
  mcp.registerTool('profile', { description: 'Asks for a profile', inputSchema: {} }, async () => {
    const answer = await mcp.server.elicitInput({
      message: 'Your profile',
      requestedSchema: {
        type: 'object',
        properties: {
          name: { type: 'string', default: 'John Doe' },
          age: { type: 'integer', default: 30 },
          status: { type: 'string', enum: ['active', 'inactive'], default: 'active' },
          verified: { type: 'boolean', default: true },
        },
        required: [],
      },
    });
    return { content: [{ type: 'text', text: JSON.stringify(answer.content ?? null) }] };
  });
  mcp.registerTool('link', { description: 'Asks the user to open a URL', inputSchema: {} }, async () => {
    const answer = await mcp.server.elicitInput({
      mode: 'url',
      message: 'Sign in',
      url: 'https://example.com/sign-in',
      elicitationId: 'elicitation-1',
    });
    return { content: [{ type: 'text', text: answer.action }] };
  });
  return mcp;
}

const eliciting = new InProcessServer({ name: 'eliciting', factory: createElicitingServer });
const kit = useKitPerTest({ suiteName: 'capabilities', caseId: 'case-1' });

function declared(client: { finalTrace?: { events: readonly import('../trace/Event').TraceEvent[] } }): unknown {
  const init = requests(client.finalTrace!.events, 'initialize')[0]!;
  return (init.payload.params as { capabilities: unknown }).capabilities;
}

describe('declared client capabilities (contract §17)', () => {
  test('the callbacks given choose the defaults', () => {
    const handler = (): never => {
      throw new Error('not called');
    };
    expect(declaredCapabilities({})).toEqual({});
    expect(declaredCapabilities({ onElicitation: handler, onSampling: handler, onRoots: handler })).toEqual({
      elicitation: { form: { applyDefaults: true } },
      sampling: {},
      roots: { listChanged: true },
    });
  });

  test('an explicit key replaces its default and keeps the others', () => {
    const handler = (): never => {
      throw new Error('not called');
    };
    expect(
      declaredCapabilities({
        onElicitation: handler,
        onRoots: handler,
        capabilities: { elicitation: { form: {}, url: {} }, experimental: { probe: {} } },
      }),
    ).toEqual({ elicitation: { form: {}, url: {} }, roots: { listChanged: true }, experimental: { probe: {} } });
  });

  test('bad capabilities are refused with the key and the fix', () => {
    expect(() => checkCapabilities('all')).toThrow(/capabilities must be an object/);
    expect(() => checkCapabilities({ elicitations: {} })).toThrow(
      "unknown client capability 'elicitations': use one of experimental, sampling, elicitation, roots, tasks, extensions (non-standard ones go under experimental)",
    );
    expect(() => checkCapabilities({ roots: { listChanged: 'yes' } })).toThrow(/capabilities\.roots\.listChanged/);
    expect(() => kit().direct(eliciting, { capabilities: [] as never })).toThrow(ModelValidationError);
  });

  test('onElicitation declares form elicitation with defaults; the fields the handler left out get them', async () => {
    const client = await kit()
      .direct(eliciting, { onElicitation: () => ({ action: 'accept', content: { name: 'Ada' } }) })
      .connect();
    const result = await client.callTool('profile');
    expect(JSON.parse(textOf(result.content[0]))).toEqual({
      name: 'Ada',
      age: 30,
      status: 'active',
      verified: true,
    });
    await client.close();
    expect(declared(client)).toEqual({ elicitation: { form: { applyDefaults: true } } });
  });

  test('declaring form elicitation without applyDefaults sends the answer as the handler gave it', async () => {
    const client = await kit()
      .direct(eliciting, {
        onElicitation: () => ({ action: 'accept', content: { name: 'Ada' } }),
        capabilities: { elicitation: { form: {} } },
      })
      .connect();
    const result = await client.callTool('profile');
    expect(JSON.parse(textOf(result.content[0]))).toEqual({ name: 'Ada' });
    await client.close();
  });

  test('URL-mode elicitation works only when declared', async () => {
    const seen: string[] = [];
    const onElicitation = (params: { mode?: string }) => {
      seen.push(params.mode ?? 'form');
      return { action: 'accept' as const };
    };
    const formOnly = await kit().direct(eliciting, { onElicitation }).connect();
    expect((await formOnly.callTool('link')).isError).toBe(true);
    await formOnly.close();
    expect(seen).toEqual([]);

    const withUrl = await kit()
      .direct(eliciting, { onElicitation, capabilities: { elicitation: { form: {}, url: {} } } })
      .connect();
    expect((await withUrl.callTool('link')).content[0]).toMatchObject({ text: 'accept' });
    await withUrl.close();
    expect(seen).toEqual(['url']);
    expect(declared(withUrl)).toEqual({ elicitation: { form: {}, url: {} } });
  });

  test('a capability declared without a callback is declared as given', async () => {
    const client = await kit()
      .direct(eliciting, { capabilities: { roots: { listChanged: true } } })
      .connect();
    await client.sendRootsListChanged();
    await client.close();
    expect(declared(client)).toEqual({ roots: { listChanged: true } });
    expect(
      client.finalTrace!.events.filter((e) => e.payload.method === 'notifications/roots/list_changed'),
    ).toHaveLength(1);

    const undeclared = await kit()
      .direct(eliciting, { capabilities: { roots: { listChanged: false } } })
      .connect();
    await expect(undeclared.sendRootsListChanged()).rejects.toThrow(/needs the roots capability/);
    await undeclared.close();
  });
});
