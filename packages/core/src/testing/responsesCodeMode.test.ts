import type { JsonValue } from '../json';
import recorded from './__fixtures__/codex-0.171.0-code-mode-request.json';
import { FakeModelServer } from './FakeModelServer';
import { postJson, readSse } from './fakeModel.testkit';
import { lastUserText, offeredTool, toolRounds, trailingToolResults, type FakeModelRequest } from './fakeModelRequest';
import { requestMatches } from './fakeModelRules';
import {
  callScript,
  deferredNamespaces,
  discoveryReply,
  execReport,
  execResult,
  scriptedCall,
  TOOL_DISCOVERY_SCRIPT,
} from './responsesCodeMode';
import { callTarget } from './responsesDialect';
import { readResponsesRequest } from './responsesRequest';

type Item = { type: string; call_id?: string; name?: string; input?: string; output?: unknown };
const body = recorded.body as unknown as { input: Item[] } & Record<string, JsonValue>;
const at = (predicate: (item: Item) => boolean) => body.input.findIndex(predicate);
/** The recorded request cut before an input item: what Codex sent earlier in the same session. */
const before = (index: number) => ({ ...body, input: body.input.slice(0, index) }) as unknown as JsonValue;
const DISCOVERY = at((i) => i.input === TOOL_DISCOVERY_SCRIPT);
const FIRST_QUOTE = at((i) => i.type === 'custom_tool_call' && i.call_id === 'call_2_1');
const asRequest = (view: ReturnType<typeof readResponsesRequest>): FakeModelRequest => ({
  ...view,
  method: 'POST',
  path: '/v1/responses',
  headers: {},
  body: null,
  dialect: 'responses',
  number: 1,
});

describe('Codex code mode on the Responses wire', () => {
  it('reads the request Codex 0.171.0 sent for gpt-5.6-sol after two turns of exec calls', () => {
    const view = readResponsesRequest(body as unknown as JsonValue);
    expect(view).toMatchObject({ model: 'gpt-5.6-sol', stream: true, codeMode: true });
    expect(deferredNamespaces(view.system)).toEqual(['mcp__example']);
    // exec's siblings, the nested tools its description declares, then what the fake's discovery listed.
    expect(view.tools.map((t) => t.name)).toEqual([
      'exec',
      'apply_patch',
      'list_mcp_resource_templates',
      'list_mcp_resources',
      'read_mcp_resource',
      'wait',
      'request_user_input',
      'mcp__example__shipping_quote',
    ]);
    expect(view.tools.at(-1)).toMatchObject({
      namespace: 'mcp__example',
      codeMode: true,
      parameters: null,
      description: expect.stringContaining('declare const tools: { mcp__example__shipping_quote(args: {'),
    });
    expect(offeredTool(view, 'shipping_quote')).toBe('mcp__example__shipping_quote');
    // The discovery exchange is not part of the conversation: two rounds of the scripted calls remain.
    expect(toolRounds(view)).toBe(2);
    expect(view.messages.map((m) => m.role)).toEqual([
      'user',
      'user',
      'assistant',
      'tool',
      'assistant',
      'user',
      'assistant',
      'tool',
    ]);
    expect(view.messages[2]!.toolCalls).toEqual([
      { id: 'call_2_1', name: 'mcp__example__shipping_quote', arguments: { weight_kg: 2, zone: 'local' } },
    ]);
    expect(view.messages[3]!.toolResults).toEqual([
      {
        callId: 'call_2_1',
        name: 'mcp__example__shipping_quote',
        text: '{"amount":9,"currency":"USD"}',
        isError: false,
      },
    ]);
    expect(lastUserText(view)).toBe('Normalize customer Ada, then quote 5 kg to the international zone.');
    // A call of a nested tool Codex does not have (the run's `tools` denied it) is a failed script: an error.
    expect(trailingToolResults(view)).toEqual([
      {
        callId: 'call_4_1',
        name: 'mcp__example__normalize_customer',
        text: expect.stringContaining('TypeError: tools.mcp__example__normalize_customer is not a function'),
        isError: true,
      },
      {
        callId: 'call_4_2',
        name: 'mcp__example__shipping_quote',
        text: '{"amount":40,"currency":"USD"}',
        isError: false,
      },
    ]);
    expect(requestMatches({ afterToolResult: 'shipping_quote' }, asRequest(view))).toBe(true);
    expect(requestMatches({ afterToolResult: 'normalize_customer' }, asRequest(view))).toBe(true);
    expect(discoveryReply(body as unknown as JsonValue, view.system)).toBeNull();
  });

  it('asks for the nested tools once, when Codex named only deferred namespaces; then the tool rules match', () => {
    const first = readResponsesRequest(before(DISCOVERY));
    expect(first.codeMode).toBe(true);
    expect(offeredTool(first, 'shipping_quote')).toBeNull();
    expect(discoveryReply(before(DISCOVERY), first.system)).toEqual({
      toolCalls: [{ name: 'exec', arguments: TOOL_DISCOVERY_SCRIPT }],
    });
    const discovered = readResponsesRequest(before(FIRST_QUOTE));
    expect(discovered.messages.map((m) => m.role)).toEqual(['user', 'user']);
    const match = { tool: 'shipping_quote', afterToolResult: false, lastUserText: 'shipping quote' } as const;
    expect(requestMatches(match, asRequest(first))).toBe(false);
    expect(requestMatches(match, asRequest(discovered))).toBe(true);
    expect(discoveryReply(before(FIRST_QUOTE), discovered.system)).toBeNull();
    // Direct mode (no additional_tools item) and code mode without deferred namespaces need none.
    expect(discoveryReply({ input: 'hi', tools: [] }, '')).toBeNull();
    const noServers = body.input.slice(0, 1) as unknown as JsonValue;
    expect(discoveryReply({ input: noServers }, 'You are Codex.')).toBeNull();
  });

  it('keeps a discovery that failed, or printed no listing, in the conversation as an exec call with its result', () => {
    const answered = (output: string) => {
      const call = body.input[DISCOVERY]!;
      const input = [
        ...body.input.slice(0, DISCOVERY + 1),
        { type: 'custom_tool_call_output', call_id: call.call_id, output },
      ];
      return { ...body, input } as unknown as JsonValue;
    };
    const failed = readResponsesRequest(answered('Script failed\nOutput:\nboom'));
    expect(failed.tools.some((t) => t.name === 'mcp__example__shipping_quote')).toBe(false);
    expect(trailingToolResults(failed)).toEqual([{ callId: 'call_1_1', name: 'exec', text: 'boom', isError: true }]);
    expect(discoveryReply(answered('Script failed\nOutput:\nboom'), failed.system)).toBeNull(); // no second try
    const cut = readResponsesRequest(answered('Script completed\nOutput:\n[{"name":"mcp__exa'));
    expect(trailingToolResults(cut)).toEqual([
      { callId: 'call_1_1', name: 'exec', text: '[{"name":"mcp__exa', isError: false },
    ]);
  });

  it('sends nested calls as exec JavaScript, exec as it is, and its siblings as function calls', () => {
    const view = readResponsesRequest(body as unknown as JsonValue);
    expect(callTarget(view, 'shipping_quote')).toEqual({ kind: 'nested', name: 'mcp__example__shipping_quote' });
    expect(callTarget(view, 'mcp__example__shipping_quote')).toEqual({
      kind: 'nested',
      name: 'mcp__example__shipping_quote',
    });
    expect(callTarget(view, 'mcp__example__normalize_customer')).toEqual({
      kind: 'nested',
      name: 'mcp__example__normalize_customer',
    });
    expect(callTarget(view, 'exec')).toEqual({ kind: 'exec' });
    expect(callTarget(view, 'wait')).toEqual({ kind: 'function', name: 'wait' });
    expect(callTarget(view, 'not-an-identifier')).toEqual({ kind: 'function', name: 'not-an-identifier' });
    const script = callScript('mcp__example__shipping_quote', '{"weight_kg":2,"zone":"local"}');
    expect(script).toBe(body.input[FIRST_QUOTE]!.input); // exactly what Codex ran and sent back
    expect(scriptedCall(script)).toEqual({
      name: 'mcp__example__shipping_quote',
      arguments: { weight_kg: 2, zone: 'local' },
    });
    expect(callScript('apply_patch', '*** Begin Patch')).toBe(
      'const r = await tools.apply_patch("*** Begin Patch");\ntext(JSON.stringify(r));',
    );
    expect(scriptedCall('text(ALL_TOOLS.length);')).toBeNull();
  });

  it('reads every exec report form: parts or a string, a tool error, printed text, a non-text block', () => {
    const parts = (status: string, ...printed: string[]) => [
      { type: 'input_text', text: `Script ${status}\nWall time 0.1 seconds\nOutput:\n` },
      ...printed.map((text) => ({ type: 'input_text', text })),
    ];
    const failing = JSON.stringify({ content: [{ type: 'text', text: 'expected example failure' }], isError: true });
    expect(execResult('c', execReport(parts('completed', failing))!)).toEqual({
      callId: 'c',
      name: null,
      text: 'expected example failure',
      isError: true,
    });
    expect(execReport('Script completed\nWall time 0.0 seconds\nOutput:\nhello')).toEqual({
      status: 'completed',
      printed: 'hello',
    });
    expect(execReport(parts('completed', 'a', 'b'))).toEqual({ status: 'completed', printed: 'a\nb' });
    expect(execReport('Wall time: 0.0051 seconds\nOutput:\n{}')).toBeNull(); // a direct-mode function output
    const image = JSON.stringify({
      content: [
        { type: 'text', text: 'see' },
        { type: 'image', data: 'AA', mimeType: 'image/png' },
      ],
    });
    expect(execResult(null, execReport(parts('completed', image))!).text).toBe(
      'see\n{"type":"image","data":"AA","mimeType":"image/png"}',
    );
    expect(execResult(null, execReport(parts('running'))!)).toMatchObject({ text: '', isError: false });
  });
});

describe('FakeModelServer in Codex code mode', () => {
  let fake: FakeModelServer;
  afterEach(() => fake.close());

  it('answers the discovery first, then the ordinary rules, streaming exec calls as custom_tool_call items', async () => {
    fake = new FakeModelServer({ maxRounds: 2 })
      .when(
        { tool: 'shipping_quote', afterToolResult: false },
        { toolCalls: [{ name: 'shipping_quote', arguments: { weight_kg: 2, zone: 'local' } }] },
      )
      .when({ afterToolResult: 'shipping_quote' }, (req) => ({
        content: `Quote: ${trailingToolResults(req)[0]!.text}`,
      }));
    const { baseUrl } = await fake.start();
    const ask = async (input: JsonValue) =>
      readSse(await postJson(`${baseUrl}/responses`, { ...body, stream: true, input }));
    const doneItems = (events: Awaited<ReturnType<typeof readSse>>) =>
      events.filter((e) => e.event === 'response.output_item.done').map((e) => (e.data as { item: Item }).item);

    expect(doneItems(await ask(body.input.slice(0, DISCOVERY) as unknown as JsonValue))).toMatchObject([
      { type: 'custom_tool_call', name: 'exec', call_id: 'call_1_1', input: TOOL_DISCOVERY_SCRIPT },
    ]);
    const events = await ask(body.input.slice(0, FIRST_QUOTE) as unknown as JsonValue);
    const script = callScript('mcp__example__shipping_quote', '{"weight_kg":2,"zone":"local"}');
    expect(doneItems(events)).toMatchObject([
      { type: 'custom_tool_call', name: 'exec', call_id: 'call_2_1', input: script },
    ]);
    const deltas = events.filter((e) => e.event === 'response.custom_tool_call_input.delta');
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.map((e) => (e.data as { delta: string }).delta).join('')).toBe(script);
    expect(events.find((e) => e.event === 'response.custom_tool_call_input.done')?.data).toMatchObject({
      input: script,
    });
    const after = body.input.slice(0, FIRST_QUOTE + 2) as unknown as JsonValue;
    const answer = doneItems(await ask(after));
    expect(answer).toMatchObject([{ type: 'message', content: [{ text: 'Quote: {"amount":9,"currency":"USD"}' }] }]);
    expect(fake.answers).toEqual([{ kind: 'discovery' }, { kind: 'rule', index: 0 }, { kind: 'rule', index: 1 }]);
  });

  it('leaves the first request to the rules with discoverCodeModeTools: false', async () => {
    fake = new FakeModelServer({ discoverCodeModeTools: false }).when({ model: 'gpt-5.6-sol' }, { content: 'ok' });
    const { baseUrl } = await fake.start();
    const response = await postJson(`${baseUrl}/responses`, {
      ...body,
      stream: false,
      input: body.input.slice(0, DISCOVERY),
    });
    expect(await response.json()).toMatchObject({ output: [{ type: 'message', content: [{ text: 'ok' }] }] });
    expect(fake.answers).toEqual([{ kind: 'rule', index: 0 }]);
  });
});
