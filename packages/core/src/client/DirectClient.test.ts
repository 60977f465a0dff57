import { createExampleServer } from '@sf-m3/example-servers';
import { ModelValidationError, OperationTimeout, ProtocolError } from '../errors';
import { kitOf } from '../ownership/kitLink';
import { InProcessServer } from '../servers/InProcessServer';
import {
  createFeatureServer,
  createPagedServer,
  kinds,
  rejection,
  requests,
  type PagedMode,
  useKitPerTest,
} from '@sf-m3/test-utils/client';

const example = new InProcessServer({ name: 'example', factory: createExampleServer });
const feature = new InProcessServer({ name: 'feature', factory: createFeatureServer });
const paged = (mode: PagedMode): InProcessServer =>
  new InProcessServer({ name: `paged-${mode}`, factory: () => createPagedServer(mode) });

const kit = useKitPerTest({ suiteName: 'direct-client', caseId: 'case-1' });

describe('DirectClient operations (in-process example server)', () => {
  test('protocolVersion asks for that revision at initialize', async () => {
    const client = await kit().direct(example, { protocolVersion: '2025-03-26' }).connect();
    expect(client.initialization?.protocolVersion).toBe('2025-03-26');
    await client.close();
    const init = requests(client.finalTrace!.events, 'initialize')[0]!;
    expect(init.payload.params).toMatchObject({ protocolVersion: '2025-03-26' });
    const initialized = client.finalTrace!.events.find((e) => e.kind === 'mcp.initialized');
    expect(initialized?.payload).toMatchObject({ protocolVersion: '2025-03-26' });
    expect(() => kit().direct(example, { protocolVersion: ' ' })).toThrow(/protocolVersion/);
  });

  test('a protocol option that is not a known era or revision is refused before connecting', () => {
    expect(() => kit().direct(example, { protocol: 'newest' as never })).toThrow(ModelValidationError);
    expect(() => kit().direct(example, { protocol: 'newest' as never })).toThrow(
      /kit\.direct protocol must be one of 'auto', 'legacy', '2026-07-28', '2025-11-25', '2025-06-18'/,
    );
  });

  test('an unknown logging level and a bad argument are local validation errors', async () => {
    const client = await kit().direct(example).connect();
    await expect(client.setLoggingLevel('loud' as never)).rejects.toThrow(ModelValidationError);
    await expect(client.readResource('')).rejects.toThrow(ModelValidationError);
    await expect(client.sendRootsListChanged()).rejects.toThrow(
      /needs the roots capability: pass kit\.direct\(server, \{ onRoots \}\)/,
    );
    await client.close();
    expect(client.result?.snapshot.outcome).toBe('failed');
  });

  test('a tool error is a result, not an exception', async () => {
    const client = await kit().direct(example).connect();
    const result = await client.callTool('always_fails');
    expect(result.isError).toBe(true);
    expect(result.content).toEqual([expect.objectContaining({ type: 'text', text: 'expected example failure' })]);
    await client.close();
    expect(client.result?.snapshot.outcome).toBe('completed');
    const view = client.result!.traceView;
    expect(view.toolCalls).toHaveLength(1);
    expect(view.toolCalls[0]!.toolStatus).toBe('tool_error');
  });
});

describe('pagination', () => {
  test('listAll* follow cursors over every list', async () => {
    const client = await kit().direct(paged('ok')).connect();
    expect((await client.listAllTools()).map((t) => t.name)).toEqual(['count', 'liar']);
    expect((await client.listAllResources()).map((r) => r.name)).toEqual(['r1', 'r2']);
    expect((await client.listAllResourceTemplates()).map((t) => t.name)).toEqual(['t1', 't2']);
    expect((await client.listAllPrompts()).map((p) => p.name)).toEqual(['p1', 'p2']);
    await client.close();
    expect(requests(client.finalTrace!.events, 'tools/list')).toHaveLength(2);
  });

  test('a repeated cursor throws ProtocolError instead of looping', async () => {
    const client = await kit().direct(paged('repeat-cursor')).connect();
    for (const list of [
      () => client.listAllTools(),
      () => client.listAllResources(),
      () => client.listAllResourceTemplates(),
      () => client.listAllPrompts(),
    ]) {
      const error = await rejection(list());
      expect(error).toBeInstanceOf(ProtocolError);
      expect(error.message).toMatch(/cursor repeated/);
      expect((error as ProtocolError).details).toMatchObject({ errorKind: 'repeated_cursor' });
    }
    await client.close();
    expect(client.result?.snapshot.outcome).toBe('failed');
    expect(client.result?.error?.code).toBe('protocol_error');
  });

  test('a malformed response is a ProtocolError', async () => {
    const client = await kit().direct(paged('malformed')).connect();
    const error = await rejection(client.listTools());
    expect(error).toBeInstanceOf(ProtocolError);
    expect((error as ProtocolError).details).toMatchObject({
      errorKind: 'malformed_response',
      operation: 'tools/list',
    });
    expect(error.message).toMatch(/malformed response/);
    await client.close();
  });
});

describe('errors', () => {
  test('a JSON-RPC error response is a ProtocolError with the protocol code', async () => {
    const client = await kit().direct(example).connect();
    const error = await rejection(client.readResource('memory://orders/order-404'));
    expect(error).toBeInstanceOf(ProtocolError);
    expect((error as ProtocolError).details).toMatchObject({ protocolCode: -32602, operation: 'resources/read' });
    expect(error.message).toContain('order not found');
    await client.close();
    expect(client.result?.snapshot.outcome).toBe('failed');
    expect(client.finalTrace!.events.some((e) => e.kind === 'mcp.error')).toBe(true);
  });

  test('an operation past its timeout throws OperationTimeout and is recorded', async () => {
    const client = await kit().direct(feature, { timeoutMs: 5_000 }).connect();
    const started = Date.now();
    const error = await rejection(client.callTool('slow', { ms: 3_000 }, { timeoutMs: 100 }));
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(error).toBeInstanceOf(OperationTimeout);
    expect((error as OperationTimeout).details).toMatchObject({ operation: 'tools/call', timeoutMs: 100 });
    expect(error.message).toMatch(/timed out after 100 ms/);
    await client.close();
    const events = client.finalTrace!.events;
    const diagnostic = events.find((e) => e.kind === 'diagnostic' && e.payload.code === 'operation_timeout');
    expect(diagnostic?.jsonrpcId).toBe(requests(events, 'tools/call')[0]!.jsonrpcId);
    expect(events.some((e) => e.kind === 'mcp.cancellation_requested')).toBe(true);
    expect(client.result?.snapshot.outcome).toBe('failed');
    expect(client.result!.traceView.toolCalls[0]!.toolStatus).toBe('timed_out');
  });

  test('the default timeout applies to every request', async () => {
    const client = await kit().direct(feature, { timeoutMs: 80 }).connect();
    expect(client.timeoutMs).toBe(80);
    await expect(client.callTool('slow', { ms: 2_000 })).rejects.toThrow(OperationTimeout);
    await client.close();
  });

  test('bad options are rejected when the client is made', () => {
    expect(() => kit().direct(example, { timeoutMs: 0 })).toThrow(ModelValidationError);
    expect(() => kit().direct(example, { timeoutMs: Number.NaN })).toThrow(/timeoutMs/);
    expect(() => kit().direct(example, { nope: true } as never)).toThrow(/unknown kit.direct option 'nope'/);
    expect(() => kit().direct({} as never)).toThrow(/needs a server/);
  });
});

describe('trace and execution result', () => {
  test('events are numbered, both directions are recorded and the result is saved', async () => {
    const client = await kit().direct(example).connect();
    await client.callTool('shipping_quote', { weight_kg: 1, zone: 'local' });
    await client.close();
    const trace = client.finalTrace!;
    expect(trace.events.map((e) => e.sequence)).toEqual(trace.events.map((_, i) => i));
    const names = kinds(trace.events);
    expect(names[0]).toBe('execution.created');
    expect(names.at(-1)).toBe('execution.finished');
    expect(names).toEqual(
      expect.arrayContaining([
        'transport.connected',
        'mcp.initialized',
        'mcp.request',
        'mcp.response',
        'tool.call_requested',
        'tool.result_received',
      ]),
    );
    expect(trace.completeness).toBe('partial');
    expect(trace.limitations).toContain('capture_incomplete');
    expect(trace.events[0]!.payload).toMatchObject({ runtime: 'direct', suiteName: 'direct-client', caseId: 'case-1' });

    const result = client.result!;
    expect(result.executionId).toBe(client.executionId);
    expect(result.trace).toBe(trace);
    expect(result.traceView.runtime.kind).toBe('direct');
    expect(result.traceView.toolCalls[0]!.tool).toMatchObject({ state: 'observed', value: 'shipping_quote' });
    expect(kitOf(result)).toBe(kit());
    expect(kitOf(result.traceView)).toBe(kit());
    expect(kit().executionIds()).toEqual([client.executionId]);

    const stored = await kit().getTraceView(client.executionId);
    expect(JSON.parse(JSON.stringify(stored))).toEqual(JSON.parse(JSON.stringify(result.traceView)));
    expect((await kit().getTrace(client.executionId)).events).toHaveLength(trace.events.length);
    const record = await kit().store.getExecution(client.executionId);
    expect(record).toMatchObject({
      kind: 'direct',
      outcome: 'completed',
      suiteName: 'direct-client',
      caseId: 'case-1',
    });
    expect(record.servers).toEqual([{ name: 'example', transport: 'in_process', target: 'in-memory' }]);

    const frame = trace.events.find((e) => e.rawEvidence !== undefined);
    expect(frame).toBeDefined();
    const raw = await kit().readRawEvidence(frame!.rawEvidence!);
    expect(raw.redacted).toBe(true);
    expect(raw.content.length).toBeGreaterThan(0);
  });
});
