import { exampleServerBin } from '@sf-m3/example-servers';
import { PI_EXTENSION_PATH } from '../piLaunch';
import { ensureBuilt } from '../piHarness.testkit';
import { PI_BRIDGE_CONFIG_ENV, PI_BRIDGE_STATUS_KEY, type PiBridgeConfig } from './piBridgeConfig';

interface RegisteredTool {
  name: string;
  parameters: Record<string, unknown>;
  execute(id: string, params: unknown): Promise<{ content: unknown[]; details: unknown }>;
}

beforeAll(ensureBuilt, 120_000);

/** Runs the built extension (what Pi loads) against a stub of Pi's extension API. */
async function load(config: PiBridgeConfig) {
  process.env[PI_BRIDGE_CONFIG_ENV] = JSON.stringify(config);
  const tools: RegisteredTool[] = [];
  const handlers = new Map<string, (event: unknown, ctx?: unknown) => unknown>();
  const factory = require(PI_EXTENSION_PATH) as (pi: unknown) => Promise<void>;
  await factory({
    registerTool: (tool: RegisteredTool) => tools.push(tool),
    on: (event: string, handler: (event: unknown, ctx?: unknown) => unknown) => handlers.set(event, handler),
  });
  const statuses: Array<[string, string]> = [];
  await handlers.get('session_start')?.({}, { ui: { setStatus: (k: string, t: string) => statuses.push([k, t]) } });
  const close = () => handlers.get('session_shutdown')?.({ reason: 'quit' });
  return { tools, statuses, close };
}

describe('the sf-m3 Pi extension (built)', () => {
  afterEach(() => {
    delete process.env[PI_BRIDGE_CONFIG_ENV];
  });

  it('registers the allowed tools of each server, calls them, and fails a result the tool marked isError', async () => {
    const example = { name: 'example', command: process.execPath, args: [exampleServerBin], env: [] };
    const { tools, statuses, close } = await load({
      schemaVersion: 1,
      servers: [example, { name: 'broken', command: '/nonexistent/server', args: [], env: [] }],
      tools: [{ server: 'example', tools: ['shipping_quote', 'always_fails'] }],
    });
    try {
      expect(tools.map((t) => t.name)).toEqual(['mcp_example_shipping_quote', 'mcp_example_always_fails']);
      expect(tools[0]!.parameters).toMatchObject({ type: 'object', required: ['weight_kg', 'zone'] });
      const quote = await tools[0]!.execute('call_1', { weight_kg: 2, zone: 'local' });
      expect(quote.details).toEqual({
        server: 'example',
        tool: 'shipping_quote',
        structuredContent: { amount: 9, currency: 'USD' },
      });
      await expect(tools[1]!.execute('call_2', {})).rejects.toThrow(/.+/);
      expect(statuses).toHaveLength(1);
      const [key, text] = statuses[0]!;
      expect(key).toBe(PI_BRIDGE_STATUS_KEY);
      const status = JSON.parse(text) as { tools: unknown[]; errors: Array<{ server: string }> };
      expect(status.tools).toEqual([
        { name: 'mcp_example_shipping_quote', server: 'example', tool: 'shipping_quote' },
        { name: 'mcp_example_always_fails', server: 'example', tool: 'always_fails' },
      ]);
      expect(status.errors.map((e) => e.server)).toEqual(['broken']);
    } finally {
      await close();
    }
  });
});
