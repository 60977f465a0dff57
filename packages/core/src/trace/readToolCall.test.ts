import { createExampleServer } from '@sf-m3/example-servers';
import { MCPTestKit } from '../kit/MCPTestKit';
import { InProcessServer } from '../servers/InProcessServer';
import { buildAgentTrace } from '@sf-m3/test-utils/trace';
import { readToolCall } from './readToolCall';
import { TraceView } from './TraceView';

const example = new InProcessServer({ name: 'example', factory: createExampleServer });

describe('readToolCall on a trace a real DirectClient recorded', () => {
  let kit: MCPTestKit;
  beforeEach(() => {
    kit = new MCPTestKit();
  });
  afterEach(async () => {
    await kit.close();
  });

  it('gives arguments, structured content, content and text as plain values from the wire', async () => {
    const client = await kit.direct(example).connect();
    await client.callTool('shipping_quote', { weight_kg: 2, zone: 'local' });
    await client.callTool('always_fails');
    await client.close();
    const [quote, failing] = client.finalTrace.view().toolCalls;

    const read = readToolCall(quote!);
    expect(read).toEqual({
      side: 'wire',
      tool: 'shipping_quote',
      arguments: { weight_kg: 2, zone: 'local' },
      content: [{ type: 'text', text: JSON.stringify({ amount: 9, currency: 'USD' }) }],
      structuredContent: { amount: 9, currency: 'USD' },
      text: JSON.stringify({ amount: 9, currency: 'USD' }),
      isError: false,
      error: undefined,
    });
    expect(readToolCall(quote!, 'wire')).toEqual(read);
    expect(readToolCall(failing!)).toMatchObject({
      tool: 'always_fails',
      structuredContent: undefined,
      text: 'expected example failure',
      isError: true,
    });
  });

  it('reads a view that went through JSON and back the same way', async () => {
    const client = await kit.direct(example).connect();
    await client.callTool('batch_total', { values: [1, 2, 3] });
    await client.close();
    const view = client.finalTrace.view();
    const reparsed = TraceView.fromData(JSON.parse(JSON.stringify(view)));
    expect(readToolCall(reparsed.toolCalls[0]!)).toEqual(readToolCall(view.toolCalls[0]!));
    expect(readToolCall(reparsed.toolCalls[0]!).structuredContent).toEqual({ total: 6 });
  });

  it('has no reported side on a direct call, and says so with undefined values', async () => {
    const client = await kit.direct(example).connect();
    await client.callTool('batch_total', { values: [4] });
    await client.close();
    const reported = readToolCall(client.finalTrace.view().toolCalls[0]!, 'reported');
    expect(reported.side).toBeNull();
    expect(Object.values(reported).every((v) => v === null || v === undefined)).toBe(true);
  });

  it('reads an unknown tool, which the SDK server answers with a tool error, without throwing', async () => {
    const client = await kit.direct(example).connect();
    await client.callTool('no_such_tool');
    await client.close();
    const read = readToolCall(client.finalTrace.view().toolCalls[0]!);
    expect(read).toMatchObject({ tool: 'no_such_tool', arguments: {}, isError: true, error: undefined });
    expect(read.text).toContain('no_such_tool');
  });
});

describe('readToolCall on agent traces', () => {
  const call = {
    tool: 'add',
    arguments: { a: 2, b: 3 },
    result: { content: [{ type: 'text', text: '5' }], structuredContent: { sum: 5 } },
  };

  it('reads the wire when the proxy saw the call, and the agent report on request', () => {
    const view = buildAgentTrace({ turns: [{ calls: [{ ...call, reportedArguments: { a: 2, b: 4 } }] }] }).view();
    const entry = view.toolCalls[0]!;
    expect(readToolCall(entry)).toMatchObject({ side: 'wire', arguments: { a: 2, b: 3 }, text: '5' });
    expect(readToolCall(entry, 'reported')).toMatchObject({ side: 'reported', tool: 'add', arguments: { a: 2, b: 4 } });
  });

  it('falls back to the agent report when nothing reached the wire', () => {
    const view = buildAgentTrace({ turns: [{ calls: [{ ...call, evidence: 'reported' }] }] }).view();
    const entry = view.toolCalls[0]!;
    expect(readToolCall(entry)).toMatchObject({ side: 'reported', tool: 'add', arguments: { a: 2, b: 3 }, text: '5' });
    expect(readToolCall(entry, 'wire')).toMatchObject({ side: null, text: undefined });
  });
});
