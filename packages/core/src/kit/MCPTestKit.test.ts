import { createExampleServer } from '@sf-m3/example-servers';
import { createFeatureServer } from '@sf-m3/test-utils/client';
import { KitClosed, ModelValidationError, OperationTimeout, UnsupportedFeature } from '../errors';
import type { ToolCallResult } from '../execution/ExecutionResult';
import { InProcessServer } from '../servers/InProcessServer';
import { InMemoryExecutionStore } from '../store/InMemoryExecutionStore';
import type { TraceEvent } from '../trace/Event';
import { CallTool, GetPrompt, ListTools, Ping, ReadResource } from './DirectSpec';
import { kitOf } from '../ownership/kitLink';
import { MCPTestKit } from './MCPTestKit';

const example = new InProcessServer({ name: 'example', factory: createExampleServer });
const feature = new InProcessServer({ name: 'feature', factory: createFeatureServer });

let kit: MCPTestKit;
beforeEach(() => {
  kit = new MCPTestKit({ suiteName: 'kit-suite', caseId: 'kit-case', labels: { harness: 'direct' } });
});
afterEach(async () => {
  await kit.close();
});

describe('MCPTestKit.run with direct specs', () => {
  test('CallTool returns an ExecutionResult whose directResult is the ToolCallResult', async () => {
    const result = await kit.run(
      new CallTool({ server: example, tool: 'shipping_quote', arguments: { weight_kg: 2, zone: 'local' } }),
    );
    expect(result.snapshot).toMatchObject({ lifecycle: 'finished', outcome: 'completed', caseId: 'kit-case' });
    const direct = result.directResult as ToolCallResult;
    expect(direct).toMatchObject({ isError: false, structuredContent: { amount: 9, currency: 'USD' } });
    expect(kitOf(direct)).toBe(kit);
    expect(kitOf(result)).toBe(kit);
    expect(result.traceView.toolCalls).not.toHaveLength(0);
    const finished = result.trace.events.at(-1)!;
    expect(finished.payload).toMatchObject({
      outcome: 'completed',
      directResult: { kind: 'call_tool', isError: false, structuredContent: { amount: 9, currency: 'USD' } },
    });
    const record = await kit.store.getExecution(result.executionId);
    expect(record.spec).toMatchObject({ kind: 'direct', operation: 'call_tool', tool: 'shipping_quote' });
    expect(record.labels).toMatchObject({ harness: 'direct', server: 'example', transport: 'in_process' });
    expect(kit.executionIds()).toEqual([result.executionId]);
  });

  test('ListTools, ReadResource, GetPrompt and Ping', async () => {
    const tools = await kit.run(new ListTools({ server: example }));
    expect((tools.directResult as { tools: Array<{ name: string }> }).tools.map((t) => t.name)).toContain(
      'catalog_marker',
    );
    const firstPage = await kit.run(new ListTools({ server: example, allPages: false }));
    expect(firstPage.directResult).toMatchObject({ nextCursor: 'page-2' });
    const resource = await kit.run(new ReadResource({ server: example, uri: 'memory://testing-guide' }));
    expect((resource.directResult as { text: string }).text).toContain('Discover capabilities');
    const prompt = await kit.run(
      new GetPrompt({ server: example, name: 'review_order', arguments: { order_id: 'order-7' } }),
    );
    expect(prompt.directResult).toMatchObject({ description: 'Review a stored order' });
    const ping = await kit.run(new Ping({ server: example }));
    expect(ping.snapshot.outcome).toBe('completed');
    expect(ping.directResult).toEqual({});
    expect(kit.executionIds()).toHaveLength(5);
  });

  test('a failing operation resolves with a failed result and its error', async () => {
    const result = await kit.run(new ReadResource({ server: example, uri: 'memory://orders/none' }));
    expect(result.snapshot.outcome).toBe('failed');
    expect(result.error).toMatchObject({ code: 'protocol_error' });
    expect(result.directResult).toBeUndefined();
    expect(result.trace.events.at(-1)!.payload).toMatchObject({ outcome: 'failed', error: { code: 'protocol_error' } });
  });

  test('the spec deadline finishes the execution as timed_out with a diagnostic', async () => {
    const started = Date.now();
    const result = await kit.run(
      new CallTool({ server: feature, tool: 'slow', arguments: { ms: 10_000 }, timeoutMs: 150 }),
    );
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(result.snapshot.outcome).toBe('timed_out');
    const diagnostic = result.trace.events.find(
      (e) => e.kind === 'diagnostic' && e.payload.code === 'deadline_exceeded',
    );
    expect(diagnostic?.payload).toMatchObject({ stage: 'mcp_call', operation: 'call_tool', timeoutMs: 150 });
    expect(result.traceView.outcome).toBe('timed_out');
  });

  test('the kit deadline (option, else M3_EXECUTION_TIMEOUT_MS) applies to specs that set none', async () => {
    const previous = process.env.M3_EXECUTION_TIMEOUT_MS;
    process.env.M3_EXECUTION_TIMEOUT_MS = '120';
    const fromEnv = new MCPTestKit();
    const fromOption = new MCPTestKit({ executionTimeoutMs: 5_000 });
    if (previous === undefined) delete process.env.M3_EXECUTION_TIMEOUT_MS;
    else process.env.M3_EXECUTION_TIMEOUT_MS = previous;
    try {
      expect(fromEnv.executionTimeoutMs).toBe(120);
      expect(fromOption.executionTimeoutMs).toBe(5_000);
      const timedOut = await fromEnv.run(new CallTool({ server: feature, tool: 'slow', arguments: { ms: 10_000 } }));
      expect(timedOut.snapshot.outcome).toBe('timed_out');
      const diagnostic = timedOut.trace.events.find((e) => e.payload.code === 'deadline_exceeded');
      expect(diagnostic?.payload).toMatchObject({ timeoutMs: 120 });
      const ownDeadline = await fromEnv.run(
        new CallTool({ server: feature, tool: 'slow', arguments: { ms: 300 }, timeoutMs: 10_000 }),
      );
      expect(ownDeadline.snapshot.outcome).toBe('completed');
    } finally {
      await fromEnv.close();
      await fromOption.close();
    }
    expect(() => new MCPTestKit({ executionTimeoutMs: 0 })).toThrow(ModelValidationError);
  });

  test('spec options are validated on construction', () => {
    expect(() => new CallTool({ server: example } as never)).toThrow(/needs the tool name/);
    expect(() => new CallTool({ server: {} as never, tool: 'x' })).toThrow(/needs a server/);
    expect(() => new Ping({ server: example, timeoutMs: -1 })).toThrow(ModelValidationError);
    expect(() => new ReadResource({ server: example } as never)).toThrow(/needs a uri/);
    expect(() => kit.submit({} as never)).toThrow(UnsupportedFeature);
    expect(() => kit.submit({} as never)).toThrow(/agent\.run\(prompt, options\) or agent\.submit/);
  });
});

describe('ExecutionHandle from kit.submit', () => {
  test('events() replays then follows live events and ends after execution.finished', async () => {
    const handle = kit.submit(new CallTool({ server: feature, tool: 'slow', arguments: { ms: 100, steps: 2 } }));
    expect(handle.executionId).toMatch(/^exec-[0-9a-f]{32}$/);
    const seen: TraceEvent[] = [];
    for await (const event of handle.events()) seen.push(event);
    expect(seen.map((e) => e.sequence)).toEqual(seen.map((_, i) => i));
    expect(seen[0]!.kind).toBe('execution.created');
    expect(seen.at(-1)!.kind).toBe('execution.finished');
    const result = await handle.result();
    expect(seen).toHaveLength(result.trace.events.length);
    expect(handle.finished).toBe(true);

    const replay: TraceEvent[] = [];
    for await (const event of handle.events({ afterSequence: 2 })) replay.push(event);
    expect(replay[0]!.sequence).toBe(3);
    expect(replay.at(-1)!.kind).toBe('execution.finished');
  });

  test('result({ timeoutMs }) only limits the wait; cancel() stops the execution', async () => {
    const handle = kit.submit(new CallTool({ server: feature, tool: 'slow', arguments: { ms: 10_000 } }));
    const error = (await handle.result({ timeoutMs: 50 }).catch((e: unknown) => e)) as OperationTimeout;
    expect(error).toBeInstanceOf(OperationTimeout);
    expect(error.details).toMatchObject({ waitOnly: true, executionId: handle.executionId });
    expect(handle.finished).toBe(false);
    await handle.cancel();
    await handle.cancel();
    const result = await handle.result({ timeoutMs: 1_000 });
    expect(result.snapshot.outcome).toBe('cancelled');
    expect(() => handle.result({ timeoutMs: 0 })).toThrow(ModelValidationError);
  });
});

describe('kit lifecycle and delegation', () => {
  test('after close every method throws KitClosed and close is idempotent', async () => {
    await kit.close();
    await kit.close();
    expect(kit.closed).toBe(true);
    expect(() => kit.direct(example)).toThrow(KitClosed);
    expect(() => kit.submit(new Ping({ server: example }))).toThrow(KitClosed);
    await expect(kit.run(new Ping({ server: example }))).rejects.toThrow(KitClosed);
    expect(() => kit.registerEvaluator('x.v1', () => ({ status: 'passed' }))).toThrow(KitClosed);
    await expect(kit.evaluate({}, 'x.v1')).rejects.toThrow(KitClosed);
    await expect(kit.recordCheck({} as never)).rejects.toThrow(KitClosed);
    await expect(kit.readRawEvidence({} as never)).rejects.toThrow(KitClosed);
    expect(() => kit.agents([{ harness: 'openai', model: 'm' }])).toThrow(KitClosed);
    await expect(kit.getTraceView('exec-0')).rejects.toThrow(KitClosed);
    // Read-only accessors keep answering: the Jest environment reads them after closing the kit.
    expect(kit.executionIds()).toEqual([]);
    expect(kit.evaluationResults()).toEqual([]);
    expect(kit.requiredFailures()).toEqual([]);
  });

  test('an owned store is closed with the kit; a given store is not', async () => {
    const store = new InMemoryExecutionStore();
    const withStore = new MCPTestKit({ store });
    const result = await withStore.run(new Ping({ server: example }));
    await withStore.close();
    const view = await store.getTraceView(result.executionId);
    expect(JSON.parse(JSON.stringify(view))).toEqual(JSON.parse(JSON.stringify(result.traceView)));

    const owned = new MCPTestKit();
    const ownedStore = owned.store;
    await owned.run(new Ping({ server: example }));
    await owned.close();
    await expect(ownedStore.listRuns()).rejects.toThrow(/closed/);
  });

  test('evaluations go through the engine and appear on the execution result', async () => {
    kit.registerEvaluator('test.quote.v1', (ctx) => ({
      status: (ctx.subject as ToolCallResult).isError ? 'failed' : 'passed',
      score: 1,
      rationale: 'quote is fine',
    }));
    const result = await kit.run(
      new CallTool({ server: example, tool: 'shipping_quote', arguments: { weight_kg: 1, zone: 'local' } }),
    );
    const evaluation = await kit.evaluate(result.directResult, 'test.quote.v1');
    expect(evaluation).toMatchObject({ status: 'passed', executionId: result.executionId, caseId: 'kit-case' });
    expect(result.evaluations.map((e) => e.evaluationId)).toEqual([evaluation.evaluationId]);
    expect(kit.evaluationResults()).toHaveLength(1);
    expect(kit.requiredFailures()).toEqual([]);
  });

  test('evaluations of an execution read its record from the store once (its labels are fixed at creation)', async () => {
    kit.registerEvaluator('test.count.v1', () => true);
    const result = await kit.run(new Ping({ server: example }));
    const reads = jest.spyOn(kit.store, 'getExecution');
    const saves = jest.spyOn(kit.store, 'saveEvaluation');
    const readsOfExecution = () => reads.mock.calls.filter(([id]) => id === result.executionId).length;
    await kit.evaluate({}, 'test.count.v1', { executionId: result.executionId });
    const afterFirst = readsOfExecution();
    expect(afterFirst).toBeGreaterThan(0);
    for (let n = 0; n < 3; n += 1) {
      await kit.evaluate({ n }, 'test.count.v1', { executionId: result.executionId });
    }
    expect(readsOfExecution()).toBe(afterFirst);
    const labels = saves.mock.calls.map(([saved]) => saved.labels);
    expect(labels).toHaveLength(4);
    for (const saved of labels) {
      expect(saved).toMatchObject({
        caseId: 'kit-case',
        harness: 'direct',
        server: 'example',
        transport: 'in_process',
      });
    }
  });

  test('recordCheck saves only when recordChecks is on, and close awaits it', async () => {
    const check = {
      evaluator: 'toHaveText',
      passed: true,
      rationale: 'ok',
      subject: { text: 'x' },
      executionId: null,
      metadata: { negated: false },
    };
    expect(await kit.recordCheck(check)).toBeNull();
    kit.recordChecks = true;
    const saving = kit.recordCheck(check);
    await kit.close();
    expect((await saving)?.evaluator).toBe('m3.expect.toHaveText');
  });

  test('agents() validates harness entries without I/O', () => {
    expect(() => kit.agents([{ harness: 'robot' }])).toThrow(UnsupportedFeature);
    expect(() => kit.agents([{ harness: 'codex', models: ['m'], manifest: {} }])).toThrow(
      /'manifest' is unknown|codex/,
    );
    expect(() => kit.agents([{ harness: 'acp' }])).toThrow(/manifest/);
    expect(kit.agents([{ harness: 'openai', model: 'm' }])).toHaveLength(1);
    expect(kit.agents([{ harness: 'acp', manifest: { command: 'agent' }, models: ['a', 'b'] }])).toHaveLength(2);
  });

  test('constructor options are validated', () => {
    expect(() => new MCPTestKit({ runId: '' })).toThrow(ModelValidationError);
    const custom = new MCPTestKit({ runId: 'run-custom', attemptId: 'attempt-1' });
    expect(custom.runId).toBe('run-custom');
    expect(custom.attemptId).toBe('attempt-1');
    expect(new MCPTestKit().runId).toMatch(/^run-[0-9a-f]{32}$/);
    return custom.close();
  });
});
