// Evidence from real frames: the in-process example server (two tool pages, an enum, a resource, a
// resource template, a prompt) driven by the kit's own client, and the store the kit saved into.
import { createExampleServer } from '@sf-m3/example-servers';
import { MCPTestKit } from '../../kit/MCPTestKit';
import { InProcessServer } from '../../servers/InProcessServer';
import { InMemoryExecutionStore } from '../../store/InMemoryExecutionStore';
import type { TraceEvent } from '../../trace/Event';
import { collectRunSurfaceCoverage } from './collectRunSurfaceCoverage';
import { surfaceEvidenceOfEvents } from './SurfaceEvidenceCollector';
import { toolDefinitionHash } from './toolDefinitionHash';

const example = new InProcessServer({ name: 'example', factory: createExampleServer });
const RUN = `run-${'5'.repeat(32)}`;

async function exercise(kit: MCPTestKit): Promise<{ events: readonly TraceEvent[]; executionId: string }> {
  const client = await kit.direct(example).connect();
  await client.listAllTools();
  await client.listAllPrompts();
  await client.listAllResources();
  await client.listAllResourceTemplates();
  await client.callTool('shipping_quote', { weight_kg: 2, zone: 'local' });
  await client.callTool('shipping_quote', { weight_kg: 3, zone: 'regional' });
  await client.callTool('always_fails');
  await client.readResource('memory://testing-guide');
  await client.getPrompt('review_order', { order_id: 'order-001' });
  await client.close();
  return { events: client.finalTrace!.events, executionId: client.executionId };
}

describe('surface evidence of a direct execution', () => {
  it('reads listings (every page), calls, successes, arguments, prompt gets and resource reads from the wire', async () => {
    const kit = new MCPTestKit({ runId: RUN });
    const { events } = await exercise(kit);
    await kit.close();
    const evidence = surfaceEvidenceOfEvents(events);
    expect(Object.keys(evidence)).toEqual(['example']);
    const seen = evidence.example!;
    expect(seen.listed).toEqual({ tools: true, prompts: true, resources: true, resourceTemplates: true });
    // catalog_marker is only on the second page.
    expect(Object.keys(seen.advertised.tools).sort()).toEqual([
      'always_fails',
      'batch_total',
      'catalog_marker',
      'create_order',
      'get_order',
      'normalize_customer',
      'process_id',
      'session_observations',
      'shipping_quote',
    ]);
    expect(seen.advertised.tools.shipping_quote).toMatchObject({
      properties: ['weight_kg', 'zone'],
      enums: { zone: ['local', 'regional', 'international'] },
    });
    const listed = events.find((e) => e.kind === 'mcp.response' && e.payload.method === 'tools/list')!;
    const quote = (listed.payload.result as { tools: Array<{ name: string }> }).tools.find(
      (t) => t.name === 'shipping_quote',
    )!;
    expect(seen.advertised.tools.shipping_quote!.definitionHash).toBe(toolDefinitionHash(quote as never));
    expect(seen.toolDefinitionHistory.shipping_quote).toEqual([seen.advertised.tools.shipping_quote!.definitionHash]);
    expect(seen.tools).toEqual({
      shipping_quote: {
        calls: 2,
        successes: 2,
        propertiesUsed: ['weight_kg', 'zone'],
        valuesUsed: { weight_kg: [2, 3], zone: ['local', 'regional'] },
      },
      always_fails: { calls: 1, successes: 0, propertiesUsed: [], valuesUsed: {} },
    });
    expect(seen.prompts).toEqual({ review_order: 1 });
    expect(seen.resources).toEqual({ 'memory://testing-guide': 1 });
    expect(Object.keys(seen.advertised.resourceTemplates)).toEqual(['memory://orders/{order_id}']);
  });

  it('is stored in the finished execution snapshot and merged per run from the store', async () => {
    const store = new InMemoryExecutionStore();
    const kit = new MCPTestKit({ store, runId: RUN });
    const { events, executionId } = await exercise(kit);
    const bare = await kit.direct(example).connect();
    await bare.callTool('normalize_customer', { name: 'Ada Lovelace' });
    await bare.close();
    await kit.close();

    expect((await store.getExecution(executionId)).snapshot.surface).toEqual(surfaceEvidenceOfEvents(events));
    const coverage = await collectRunSurfaceCoverage(store, RUN);
    expect(coverage.servers.map((s) => s.server)).toEqual(['example']);
    const server = coverage.servers[0]!;
    expect(server.measures.tools).toEqual({ covered: 3, total: 9, percent: (3 / 9) * 100 });
    expect(server.measures.toolsSucceeded).toMatchObject({ covered: 2, total: 9 });
    expect(server.measures.enums).toMatchObject({ covered: 2, total: 3 });
    expect(server.measures.prompts).toMatchObject({ covered: 1, total: 1 });
    // The static resource was read; no read URI matches memory://orders/{order_id}.
    expect(server.measures.resources).toMatchObject({ covered: 1, total: 2 });
    expect(server.resourcesUnused).toEqual(['memory://orders/{order_id}']);
    expect(server.neverSucceeded).toEqual(['always_fails']);
    expect(server.unadvertisedCalls).toEqual([]);
  });
});
