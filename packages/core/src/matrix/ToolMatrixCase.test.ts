import { createExampleServer } from '@sf-m3/example-servers';
import { ModelValidationError } from '../errors';
import type { ToolCallResult } from '../execution/ExecutionResult';
import { CallTool } from '../kit/DirectSpec';
import { MCPTestKit } from '../kit/MCPTestKit';
import { InProcessServer } from '../servers/InProcessServer';
import { InMemoryExecutionStore } from '../store/InMemoryExecutionStore';
import { ServerCase } from './ServerCase';
import { ToolCase } from './ToolCase';
import { ToolMatrix } from './ToolMatrix';
import { ToolMatrixCase } from './ToolMatrixCase';

const example = new InProcessServer({ name: 'example', factory: createExampleServer });

function matrix(trials = 1): ToolMatrix {
  return new ToolMatrix({
    id: 'contract',
    trials,
    servers: [
      new ServerCase({
        name: 'catalog',
        server: example,
        tools: [
          new ToolCase({ name: 'normalize_customer', arguments: { name: 'Ada Lovelace' } }),
          new ToolCase({ name: 'always_fails' }),
        ],
      }),
      new ServerCase({
        name: 'shipping',
        server: example,
        tools: [new ToolCase({ name: 'shipping_quote', arguments: { weight_kg: 2, zone: 'regional' } })],
      }),
    ],
  });
}

let store: InMemoryExecutionStore;
let kit: MCPTestKit;
beforeEach(() => {
  store = new InMemoryExecutionStore();
  kit = new MCPTestKit({ store, suiteName: 'matrix-suite', caseId: 'kit-case' });
});
afterEach(async () => {
  await kit.close();
  await store.close();
  delete (globalThis as { m3Kit?: unknown }).m3Kit;
});

describe('ToolMatrixCase.run', () => {
  test('calls the tool through kit.run(CallTool) and returns the ExecutionResult', async () => {
    const cell = matrix().cases()[0]!;
    const spec = cell.spec();
    expect(spec).toBeInstanceOf(CallTool);
    expect(spec).toMatchObject({ tool: 'normalize_customer', arguments: { name: 'Ada Lovelace' }, server: example });

    const result = await cell.run({ kit });
    expect(result.snapshot).toMatchObject({ outcome: 'completed', caseId: 'contract:catalog/normalize_customer' });
    const direct = result.directResult as ToolCallResult;
    expect(direct).toMatchObject({
      isError: false,
      tool: 'normalize_customer',
      structuredContent: { customer_id: 'ada-lovelace' },
    });
    expect(result.traceView.toolCalls.map((c) => c.tool.value)).toEqual(['normalize_customer']);
    expect(kit.executionIds()).toEqual([result.executionId]);
  });

  test("saves the cell's case and matrix labels on the execution", async () => {
    const cell = matrix(2).cases()[1]!;
    const result = await cell.run({ kit, metadata: { variant: 'b', weight: 2 } });
    const record = await store.getExecution(result.executionId);
    expect(record.caseId).toBe('contract:catalog/normalize_customer');
    expect(record.suiteName).toBe('matrix-suite');
    expect(record.labels).toMatchObject({
      caseId: 'contract:catalog/normalize_customer',
      matrixId: 'contract',
      trial: '2',
      server: 'example',
      transport: 'in_process',
      metadata: {
        'm3.matrix.caseId': 'catalog/normalize_customer/trial-2',
        'm3.matrix.matrixId': 'contract',
        'm3.matrix.cellId': 'catalog/normalize_customer',
        'm3.matrix.mode': 'tool',
        'm3.matrix.servers': 'catalog',
        'm3.matrix.tool': 'normalize_customer',
        'm3.matrix.trial': '2',
        'm3.matrix.trialCount': '2',
        variant: 'b',
        weight: '2',
      },
    });
    expect(record.spec).toMatchObject({ kind: 'direct', operation: 'call_tool', tool: 'normalize_customer' });
  });

  test('a tool error is a result with its trace, not a throw', async () => {
    const failing = matrix().cases()[1]!;
    const result = await failing.run({ kit });
    expect(result.snapshot.outcome).toBe('completed');
    expect((result.directResult as ToolCallResult).isError).toBe(true);
    expect(result.traceView.toolCalls[0]?.tool.value).toBe('always_fails');
  });

  test('passes timeouts, schema validation and required evaluations to the spec', async () => {
    const cell = matrix().cases()[0]!;
    const spec = cell.spec({
      timeoutMs: 5000,
      operationTimeoutMs: 1000,
      validateSchemas: true,
      evaluations: [{ name: 'm3.execution.completed.v1', required: true }],
    });
    expect(spec).toMatchObject({ timeoutMs: 5000, operationTimeoutMs: 1000, validateSchemas: true });
    const result = await cell.run({ kit, validateSchemas: true, evaluations: [{ name: 'x.v1', required: true }] });
    expect((await store.getExecution(result.executionId)).requiredEvaluators).toEqual(['x.v1']);
  });

  test('uses globalThis.m3Kit by default, and says to pass a kit when there is none', async () => {
    const cell = matrix().cases()[2]!;
    await expect(cell.run()).rejects.toThrow(ModelValidationError);
    await expect(cell.run()).rejects.toThrow(/cell\.run\(\) needs a kit: pass one \(cell\.run\(\{ kit \}\)\)/);
    await expect(cell.session()).rejects.toThrow(/cell\.session\(\) needs a kit/);
    (globalThis as { m3Kit?: unknown }).m3Kit = kit;
    const result = await cell.run();
    expect(result.directResult).toMatchObject({ structuredContent: { amount: 12, currency: 'USD' } });
    expect(kit.executionIds()).toEqual([result.executionId]);
  });

  test('rejects reserved or non-scalar metadata before any work', async () => {
    const cell = matrix().cases()[0]!;
    await expect(cell.run({ kit, metadata: { 'm3.matrix.tool': 'x' } })).rejects.toThrow(
      /metadata key 'm3\.matrix\.tool' is reserved/,
    );
    await expect(cell.run({ kit, metadata: { nested: {} as unknown as string } })).rejects.toThrow(
      /value for 'nested' must be a string, number, boolean or null/,
    );
    await expect(cell.run({ kit, metadata: { ratio: Number.POSITIVE_INFINITY } })).rejects.toThrow(/finite/);
    await expect(cell.run({ kit: {} as MCPTestKit })).rejects.toThrow(/kit must be an MCPTestKit/);
    expect(kit.executionIds()).toEqual([]);
  });
});

describe('ToolMatrixCase.session', () => {
  test('gives a connected client whose execution carries the cell labels', async () => {
    const cell = matrix(2).cases()[0]!;
    const client = await cell.session({ kit, timeoutMs: 5000, metadata: { step: 'chain' } });
    const normalized = await client.callTool(cell.tool.name, { ...cell.tool.arguments });
    const customer = (normalized.structuredContent as { customer_id: string }).customer_id;
    const order = await client.callTool('create_order', { customer_id: customer, item: 'book', quantity: 1 });
    const fetched = await client.callTool('get_order', {
      order_id: (order.structuredContent as { order_id: string }).order_id,
    });
    expect(fetched.structuredContent).toMatchObject({ customer_id: 'ada-lovelace', item: 'book' });
    await client.close();
    expect(client.result?.snapshot).toMatchObject({
      outcome: 'completed',
      caseId: 'contract:catalog/normalize_customer',
    });
    const record = await store.getExecution(client.executionId);
    expect(record.labels).toMatchObject({
      matrixId: 'contract',
      trial: '1',
      metadata: { 'm3.matrix.caseId': 'catalog/normalize_customer/trial-1', step: 'chain' },
    });
    expect(record.spec).toMatchObject({ kind: 'direct', operation: 'session', timeoutMs: 5000 });
  });

  test('kit.direct checks the caseId and labels options it takes for cells', () => {
    expect(() => kit.direct(example, { caseId: '' })).toThrow(/kit\.direct caseId must be a non-empty string/);
    expect(() => kit.direct(example, { labels: 'x' as never })).toThrow(/kit\.direct labels must be an object/);
  });

  test('rejects unknown client options like kit.direct does', async () => {
    const cell = matrix().cases()[0]!;
    await expect(cell.session({ kit, bogus: 1 } as never)).rejects.toThrow(/unknown kit\.direct option 'bogus'/);
  });
});

describe('matrix labels in aggregation', () => {
  test('evaluations of cell executions aggregate by matrixId, trial, caseId and metadata.m3.matrix.tool', async () => {
    kit.registerEvaluator('matrix.no_tool_error.v1', (ctx) => {
      const direct = (ctx.subject as { directResult: { isError: boolean } }).directResult;
      return direct.isError ? { status: 'failed', rationale: 'tool error' } : 'passed';
    });
    for (const cell of matrix(2).cases()) {
      const result = await cell.run({ kit });
      await kit.evaluate(result, 'matrix.no_tool_error.v1');
    }
    // A direct execution outside the matrix must not land in the matrix's groups.
    const other = await kit.run(new CallTool({ server: example, tool: 'batch_total', arguments: { values: [1] } }));
    await kit.evaluate(other, 'matrix.no_tool_error.v1');

    const byTool = await store.aggregateEvaluations({
      filters: { evaluator: ['matrix.no_tool_error.v1'], matrixId: ['contract'] },
      groupBy: ['metadata.m3.matrix.tool'],
    });
    expect(byTool.totals).toMatchObject({ evaluationCount: 6, passedCount: 4, caseCount: 3 });
    const tools = Object.fromEntries(
      byTool.groups.map((g) => [g.key['metadata.m3.matrix.tool'], [g.values.passRate, g.values.executionCount]]),
    );
    expect(tools).toEqual({ normalize_customer: [1, 2], always_fails: [0, 2], shipping_quote: [1, 2] });

    const byCase = await store.aggregateEvaluations({
      filters: { evaluator: ['matrix.no_tool_error.v1'] },
      groupBy: ['matrixId', 'caseId'],
    });
    const cases = byCase.groups.map((g) => ({
      ...g.key,
      trials: g.values.executionCount,
      all: g.values.casesAllPassed,
    }));
    expect(cases).toEqual(
      expect.arrayContaining([
        { matrixId: 'contract', caseId: 'contract:catalog/normalize_customer', trials: 2, all: 1 },
        { matrixId: 'contract', caseId: 'contract:catalog/always_fails', trials: 2, all: 0 },
        { matrixId: 'contract', caseId: 'contract:shipping/shipping_quote', trials: 2, all: 1 },
        { matrixId: null, caseId: 'kit-case', trials: 1, all: 1 },
      ]),
    );
    expect(cases).toHaveLength(4);

    const byTrial = await store.aggregateEvaluations({
      filters: { evaluator: ['matrix.no_tool_error.v1'], matrixId: ['contract'] },
      groupBy: ['trial'],
    });
    expect(byTrial.groups.map((g) => [g.key.trial, g.values.evaluationCount, g.values.passedCount])).toEqual(
      expect.arrayContaining([
        ['1', 3, 2],
        ['2', 3, 2],
      ]),
    );
  });
});

describe('ToolMatrixCase construction', () => {
  test('checks its fields', () => {
    const serverCase = matrix().servers[0]!;
    const tool = serverCase.tools[0]!;
    const build = (fields: Record<string, unknown>) => () =>
      new ToolMatrixCase({ server: serverCase, tool, matrixId: 'm', trial: 1, trialCount: 1, ...fields } as never);
    expect(build({})).not.toThrow();
    expect(build({ tool: new ToolCase({ name: 'other' }) })).toThrow(/is not one of server case 'catalog' tools/);
    expect(build({ server: {} })).toThrow(/needs a ServerCase and one of its ToolCases/);
    expect(build({ matrixId: '' })).toThrow(/matrixId must be a non-empty string/);
    expect(build({ trial: 0 })).toThrow(/trial must be an integer >= 1/);
    expect(build({ trial: 3, trialCount: 2 })).toThrow(/trial must not exceed trialCount/);
  });
});

describe('kit labels', () => {
  test("a cell's metadata labels merge with the kit's own", async () => {
    const labelled = new MCPTestKit({ store, labels: { harness: 'direct', metadata: { env: 'ci' } } });
    try {
      const result = await matrix().cases()[0]!.run({ kit: labelled });
      const record = await store.getExecution(result.executionId);
      expect(record.labels).toMatchObject({
        harness: 'direct',
        matrixId: 'contract',
        metadata: { env: 'ci', 'm3.matrix.tool': 'normalize_customer' },
      });
    } finally {
      await labelled.close();
    }
  });
});
