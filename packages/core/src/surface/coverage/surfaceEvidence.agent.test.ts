// An agent's tool calls count once, from wire frames, not again from what the harness reported:
// the openai harness (the kit's own client to the server, origin `normalized`) against the fake
// model server, and the ACP shipping fixture agent, whose stdio server is reached through the
// capture proxy (origin `wire_observed`).
import { createExampleServer, exampleServerBin } from '@sf-m3/example-servers';
import { agentManifests, ensureBuilt } from '@sf-m3/test-utils/agents';
import { MCPTestKit } from '../../kit/MCPTestKit';
import { InProcessServer } from '../../servers/InProcessServer';
import { StdioServer } from '../../servers/StdioServer';
import { InMemoryExecutionStore } from '../../store/InMemoryExecutionStore';
import { FakeChatCompletionsServer } from '../../testing/FakeChatCompletionsServer';
import { collectRunSurfaceCoverage } from './collectRunSurfaceCoverage';

const example = new InProcessServer({ name: 'example', factory: createExampleServer });
const RUN = `run-${'a'.repeat(32)}`;

beforeAll(ensureBuilt, 120_000);

describe('surface evidence of an agent execution', () => {
  let fake: FakeChatCompletionsServer;
  let baseUrl: string;

  beforeEach(async () => {
    fake = new FakeChatCompletionsServer();
    ({ baseUrl } = await fake.start());
  });
  afterEach(async () => {
    await fake.close();
  });

  it('counts the call the model made, once, and what its listing advertised', async () => {
    const store = new InMemoryExecutionStore();
    const kit = new MCPTestKit({ store, runId: RUN });
    fake.enqueue(
      { toolCalls: [{ id: 'call_1', name: 'example__shipping_quote', arguments: { weight_kg: 1, zone: 'local' } }] },
      { content: 'quoted' },
    );
    const [agent] = kit.agents([{ harness: 'openai', model: 'fake-model', baseUrl, auth: 'none' }]);
    const result = await agent!.run('Quote a parcel', { servers: [example] });
    await kit.close();
    expect(result.snapshot.outcome).toBe('completed');
    // The harness reported the call too (origin `harness_reported`); only the wire copy counts.
    expect(result.trace.events.filter((e) => e.kind === 'tool.call_requested').length).toBeGreaterThan(1);

    const surface = (await store.getExecution(result.executionId)).snapshot.surface as Record<string, unknown>;
    expect(surface.example).toMatchObject({
      listed: { tools: true },
      tools: {
        shipping_quote: {
          calls: 1,
          successes: 1,
          propertiesUsed: ['weight_kg', 'zone'],
          valuesUsed: { weight_kg: [1], zone: ['local'] },
        },
      },
    });
    const [server] = (await collectRunSurfaceCoverage(store, RUN)).servers;
    expect(server!.measures.tools).toMatchObject({ covered: 1, total: 9 });
    expect(server!.measures.enums).toMatchObject({ covered: 1, total: 3 });
  });
});

describe('surface evidence of a proxied agent execution', () => {
  it('counts the ACP agent calls the capture proxy saw, per turn, once each', async () => {
    const store = new InMemoryExecutionStore();
    const kit = new MCPTestKit({ store, runId: RUN });
    const stdioExample = new StdioServer({ name: 'example', command: process.execPath, args: [exampleServerBin] });
    const [agent] = kit.agents([{ harness: 'acp', manifest: agentManifests.shipping, models: ['fixture'] }]);
    const session = await agent!.session({ servers: [stdioExample], timeoutMs: 30_000 });
    await session.send('Quote 2 kg local');
    await session.send('Quote 3 kg regional');
    const result = await session.close();
    await kit.close();
    expect(result.snapshot.outcome).toBe('completed');
    expect(result.trace.events.some((e) => e.origin === 'wire_observed' && e.kind === 'tool.call_requested')).toBe(
      true,
    );

    const surface = (await store.getExecution(result.executionId)).snapshot.surface as Record<string, unknown>;
    expect(surface.example).toMatchObject({
      tools: { shipping_quote: { calls: 2, successes: 2, valuesUsed: { zone: ['local', 'regional'] } } },
    });
  });
});
