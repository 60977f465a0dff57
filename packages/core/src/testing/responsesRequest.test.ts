import type { JsonValue } from '../json';
import recorded from './__fixtures__/codex-0.171.0-responses-request.json';
import { lastUserText, offeredTool, toolRounds } from './fakeModelRequest';
import { requestMatches } from './fakeModelRules';
import { callTarget } from './responsesDialect';
import { readResponsesRequest } from './responsesRequest';

describe('reading a Responses request', () => {
  it('reads the request Codex 0.171.0 sent after an MCP tool call', () => {
    const view = readResponsesRequest(recorded.body as unknown as JsonValue);
    expect(view).toMatchObject({ model: 'fake-model', stream: true });
    // Codex sends its instructions as developer messages and the environment as a user message.
    expect(view.system).toContain('You are a coding agent running in the Codex CLI');
    expect(view.system).toContain('<permissions instructions>');
    expect(lastUserText(view)).toBe('Please quote 2 kg local');
    expect(view.messages.map((m) => m.role)).toEqual(['user', 'user', 'assistant', 'tool']);
    expect(view.messages[2]).toEqual({
      role: 'assistant',
      text: 'Checking.',
      toolCalls: [{ id: 'call_1_1', name: 'mcp__example__shipping_quote', arguments: { weight_kg: 2, zone: 'local' } }],
      toolResults: [],
    });
    expect(view.messages[3]!.toolResults).toEqual([
      {
        callId: 'call_1_1',
        name: 'mcp__example__shipping_quote',
        text: expect.stringContaining('{"amount":9,"currency":"USD"}'),
        isError: false,
      },
    ]);
    expect(toolRounds(view)).toBe(1);
    expect(view.tools.map((t) => t.name)).toEqual([
      'exec_command',
      'multi_agent_v1__close_agent',
      'mcp__example__normalize_customer',
      'mcp__example__shipping_quote',
    ]);
    expect(view.tools[3]).toMatchObject({
      namespace: 'mcp__example',
      description: 'Calculate a deterministic shipping quote',
    });
    expect(offeredTool(view, 'shipping_quote')).toBe('mcp__example__shipping_quote');
    const request = {
      ...view,
      method: 'POST',
      path: '/v1/responses',
      headers: {},
      body: null,
      dialect: 'responses' as const,
      number: 1,
    };
    expect(requestMatches({ tool: 'shipping_quote', afterToolResult: 'mcp__example__shipping_quote' }, request)).toBe(
      true,
    );
    expect(callTarget(view, 'normalize_customer')).toEqual({
      kind: 'function',
      namespace: 'mcp__example',
      name: 'normalize_customer',
    });
  });

  it('reads string input, easy messages, custom tool calls and every output form', () => {
    expect(readResponsesRequest({ model: 'm', input: 'hi', instructions: 'Sys' })).toEqual({
      model: 'm',
      stream: false,
      system: 'Sys',
      messages: [{ role: 'user', text: 'hi', toolCalls: [], toolResults: [] }],
      tools: [],
    });
    const view = readResponsesRequest({
      input: [
        { role: 'system', content: 'Rules.' },
        { role: 'user', content: 'patch it' },
        { type: 'reasoning', id: 'rs_1', summary: [] },
        { type: 'custom_tool_call', call_id: 'c1', name: 'apply_patch', input: '*** Begin Patch' },
        { type: 'function_call', call_id: 'c2', name: 'lookup', arguments: 'not json' },
        { type: 'custom_tool_call_output', call_id: 'c1', output: 'Done' },
        {
          type: 'function_call_output',
          call_id: 'c2',
          output: [
            { type: 'input_text', text: 'a' },
            { type: 'input_text', text: 'b' },
          ],
        },
        { type: 'function_call', call_id: 'c3', name: 'lookup', arguments: '{}' },
        { type: 'function_call_output', call_id: 'c3', output: { content: 'boom', success: false } },
      ],
      tools: [
        { type: 'custom', name: 'apply_patch', description: 'Patch', format: { type: 'text' } },
        { type: 'mcp', server_label: 'hosted', server_url: 'https://example.invalid/mcp' },
      ],
    });
    expect(view.system).toBe('Rules.');
    expect(view.messages).toEqual([
      { role: 'user', text: 'patch it', toolCalls: [], toolResults: [] },
      {
        role: 'assistant',
        text: '',
        toolCalls: [
          { id: 'c1', name: 'apply_patch', arguments: '*** Begin Patch' },
          { id: 'c2', name: 'lookup', arguments: 'not json' },
        ],
        toolResults: [],
      },
      {
        role: 'tool',
        text: '',
        toolCalls: [],
        toolResults: [
          { callId: 'c1', name: 'apply_patch', text: 'Done', isError: false },
          { callId: 'c2', name: 'lookup', text: 'a\nb', isError: false },
        ],
      },
      { role: 'assistant', text: '', toolCalls: [{ id: 'c3', name: 'lookup', arguments: {} }], toolResults: [] },
      {
        role: 'tool',
        text: '',
        toolCalls: [],
        toolResults: [{ callId: 'c3', name: 'lookup', text: 'boom', isError: true }],
      },
    ]);
    expect(toolRounds(view)).toBe(2);
    expect(view.tools).toEqual([{ name: 'apply_patch', description: 'Patch', parameters: null }]);
  });
});
