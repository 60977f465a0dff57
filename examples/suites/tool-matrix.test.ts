// Test matrices: the same deterministic tool calls across servers and tools, several trials each,
// one Jest test per cell. Every cell's execution carries its matrix id, trial, case and
// `m3.matrix.*` metadata, so verdicts aggregate per tool, per trial and per case.
import { InMemoryExecutionStore, MCPTestKit, ServerCase, ToolCase, ToolMatrix } from 'sf-m3';
import { exampleServer } from './servers';

const contract = new ToolMatrix({
  id: 'example-contract',
  trials: 2,
  servers: [
    new ServerCase({
      name: 'example-mcp',
      server: exampleServer,
      tools: [
        new ToolCase({ name: 'normalize_customer', arguments: { name: 'Ada Lovelace' } }),
        new ToolCase({ name: 'batch_total', arguments: { values: [1, 2, 3] } }),
        new ToolCase({ name: 'shipping_quote', arguments: { weight_kg: 2, zone: 'regional' } }),
      ],
    }),
  ],
});

/** What each tool case must return: the contract the matrix checks on every trial. */
const expected: Record<string, object> = {
  normalize_customer: { customer_id: 'ada-lovelace' },
  batch_total: { total: 6 },
  shipping_quote: { amount: 12, currency: 'USD' },
};

describe.m3('tool matrix', () => {
  test('cases() lists every cell and trial without starting a server', () => {
    const cells = contract.cases();
    expect(cells.map((cell) => cell.caseId)).toEqual([
      'example-mcp/normalize_customer/trial-1',
      'example-mcp/normalize_customer/trial-2',
      'example-mcp/batch_total/trial-1',
      'example-mcp/batch_total/trial-2',
      'example-mcp/shipping_quote/trial-1',
      'example-mcp/shipping_quote/trial-2',
    ]);
    expect(cells[5]!.metadata).toMatchObject({
      'm3.matrix.matrixId': 'example-contract',
      'm3.matrix.tool': 'shipping_quote',
      'm3.matrix.trial': 2,
      'm3.matrix.trialCount': 2,
    });
  });

  // One Jest test per cell, e.g. "contract [example-mcp/batch_total trial 2/2]"; `cell.run()` uses
  // the test's m3Kit, so matcher verdicts are saved with the cell's labels.
  contract.test('contract', async (cell) => {
    const result = await cell.run();
    expect(result).toBeCompleted();
    expect(result.directResult).not.toBeToolError();
    expect(result.directResult).toHaveStructuredContent(expected[cell.tool.id]);
    expect(result).toHaveToolCall(cell.tool.name, { arguments: { ...cell.tool.arguments }, count: 1 });
    expect(result.snapshot.caseId).toBe(`example-contract:${cell.cellId}`);
  });

  // A tool that reports an error is a result the cell can assert on, with its trace.
  const failures = new ToolMatrix({
    id: 'example-failures',
    servers: [
      new ServerCase({ name: 'example-mcp', server: exampleServer, tools: [new ToolCase({ name: 'always_fails' })] }),
    ],
  });
  failures.test('tool errors are results', async (cell) => {
    const result = await cell.run();
    expect(result).toBeCompleted();
    expect(result.directResult).toBeToolError('expected example failure');
    expect(result).toHaveToolCall('always_fails', { status: 'tool_error' });
  });

  // `cell.session()` gives a connected client for cells that need several steps on one server.
  const chain = new ToolMatrix({
    id: 'example-chain',
    servers: [
      new ServerCase({
        name: 'example-mcp',
        server: exampleServer,
        tools: [new ToolCase({ name: 'normalize_customer', arguments: { name: 'Grace Hopper' } })],
      }),
    ],
  });
  chain.test('multi-step session', async (cell) => {
    const client = await cell.session();
    const customer = await client.callTool(cell.tool.name, { ...cell.tool.arguments });
    const { customer_id } = customer.structuredContent as { customer_id: string };
    const order = await client.callTool('create_order', { customer_id, item: 'compiler', quantity: 1 });
    const { order_id } = order.structuredContent as { order_id: string };
    expect(await client.callTool('get_order', { order_id })).toHaveStructuredContent(
      { customer_id: 'grace-hopper', item: 'compiler' },
      { partial: true },
    );
    await client.close();
    expect(client.result).toHaveToolCalls(['normalize_customer', 'create_order', 'get_order']);
  });

  test('verdicts aggregate per tool and per case across trials', async () => {
    // A kit of its own, so the aggregation sees exactly this matrix's executions.
    const store = new InMemoryExecutionStore();
    const kit = new MCPTestKit({ store });
    try {
      kit.registerEvaluator('example.matrix.contract.v1', (ctx) => {
        const tool = ctx.metadata.tool as string;
        const actual = (ctx.subject as { directResult?: { structuredContent?: unknown } }).directResult
          ?.structuredContent;
        return JSON.stringify(actual) === JSON.stringify(expected[tool]) ? 'passed' : 'failed';
      });
      // Cells are independent executions (a fresh server process each), so they can run at once.
      await Promise.all(
        contract.cases().map(async (cell) => {
          const result = await cell.run({ kit });
          await kit.evaluate(result, 'example.matrix.contract.v1', { metadata: { tool: cell.tool.id } });
        }),
      );
      const report = await store.aggregateEvaluations({
        filters: { evaluator: ['example.matrix.contract.v1'], matrixId: ['example-contract'] },
        groupBy: ['metadata.m3.matrix.tool'],
      });
      expect(report.totals).toMatchObject({ evaluationCount: 6, passRate: 1, caseCount: 3, casesAllPassed: 3 });
      expect(report.groups.map((group) => [group.key['metadata.m3.matrix.tool'], group.values.passedCount])).toEqual(
        expect.arrayContaining([
          ['normalize_customer', 2],
          ['batch_total', 2],
          ['shipping_quote', 2],
        ]),
      );
    } finally {
      await kit.close();
      await store.close();
    }
  });
});
