import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { NativeEventRecorder } from '../native/NativeEventRecorder';
import { ClaudeStreamRecorder } from './ClaudeStreamRecorder';

/** Lines recorded from Claude Code 2.1.44 against the fake model (trimmed; see fake-claude.js). */
const SAMPLE = readFileSync(join(__dirname, '__fixtures__', 'claude-code-2.1.44.sample.ndjson'), 'utf8')
  .split('\n')
  .filter((l) => l !== '')
  .map((l) => JSON.parse(l) as Record<string, unknown>);

/** A recorder that lists what it was asked to record, by method. */
function recording() {
  const calls: Array<[string, unknown[]]> = [];
  const methods = [
    'sessionCreated',
    'assistantMessage',
    'reasoning',
    'toolRequested',
    'toolResult',
    'usage',
    'providerEvent',
  ];
  const events = Object.fromEntries(methods.map((m) => [m, (...args: unknown[]) => calls.push([m, args])]));
  const of = (method: string) => calls.filter(([m]) => m === method).map(([, args]) => args);
  return { events: events as unknown as NativeEventRecorder, calls, of };
}

const replay = (stream: ClaudeStreamRecorder, lines: readonly Record<string, unknown>[]) =>
  lines.map((l) => stream.handle(l)).filter((r) => r !== undefined);

describe('ClaudeStreamRecorder (recorded 2.1.44 stream-json)', () => {
  it('projects a two-turn session: session once, tool call and result by tool_use id, messages, cumulative usage', () => {
    const { events, of } = recording();
    const stream = new ClaudeStreamRecorder(events, new Map([['example', 'example']]), 'sonnet');
    const ends = replay(stream, SAMPLE.slice(0, 8));

    expect(of('sessionCreated')).toEqual([
      [
        {
          agentSessionId: SAMPLE[0]!.session_id,
          model: 'claude-sonnet-4-5-20250929',
          agent: { name: 'claude-code', version: '2.1.44' },
        },
      ],
    ]);
    const call = {
      providerCallId: 'toolu_fake_1_1',
      server: 'example',
      tool: 'shipping_quote',
      arguments: { weight_kg: 2, zone: 'local' },
    };
    expect(of('toolRequested')).toEqual([[call]]);
    expect(of('toolResult')).toEqual([
      [
        call,
        {
          content: [{ type: 'text', text: '{"amount":9,"currency":"USD"}' }],
          structuredContent: { amount: 9, currency: 'USD' },
        },
        'completed',
      ],
    ]);
    expect(of('assistantMessage')).toEqual([
      ['It costs 9 USD.', 'msg_fake_2'],
      ['You are welcome.', 'msg_fake_3'],
    ]);
    // modelUsage is the session's total; total_cost_usd too.
    expect(of('usage')).toEqual([
      [{ inputTokens: 21, outputTokens: 12, totalTokens: 33, cost: 0.000405, currency: 'USD' }],
      [{ inputTokens: 31, outputTokens: 17, totalTokens: 48, cost: 0.00058, currency: 'USD' }],
    ]);
    expect(ends).toEqual([
      { subtype: 'success', isError: false, text: 'It costs 9 USD.', stopReason: null },
      { subtype: 'success', isError: false, text: 'You are welcome.', stopReason: null },
    ]);
  });

  it('keeps thinking text, marks redacted_thinking encrypted and never passes a signature on', () => {
    const { events, of, calls } = recording();
    replay(new ClaudeStreamRecorder(events, new Map(), 'sonnet'), SAMPLE.slice(8, 12));

    expect(of('reasoning')).toEqual([[{ text: 'Let me think.' }], [{ visibility: 'encrypted' }]]);
    expect(JSON.stringify(calls)).not.toContain('SIGSECRET');
    expect(JSON.stringify(calls)).not.toContain('ENCRYPTEDDATA');
  });

  it('an interrupted turn (empty modelUsage, cost 0) does not lower the session totals', () => {
    const { events, of } = recording();
    const stream = new ClaudeStreamRecorder(events, new Map([['example', 'example']]), 'sonnet');
    const ends = replay(stream, [...SAMPLE.slice(0, 5), ...SAMPLE.slice(12, 15)]);

    expect(ends.at(-1)).toEqual({ subtype: 'error_during_execution', isError: false, text: null, stopReason: null });
    expect(of('usage').at(-1)).toEqual([
      { inputTokens: 21, outputTokens: 12, totalTokens: 33, cost: 0.000405, currency: 'USD' },
    ]);
  });

  it("keeps the CLI's synthetic API-error message out of the assistant's messages", () => {
    const { events, of } = recording();
    const ends = replay(new ClaudeStreamRecorder(events, new Map(), 'sonnet'), SAMPLE.slice(15, 17));

    expect(of('assistantMessage')).toEqual([]);
    expect(of('providerEvent')[0]?.[0]).toBe('claude_code.synthetic_message');
    expect(ends[0]).toMatchObject({ isError: true, text: expect.stringContaining('API Error: 400') });
    expect(of('usage')).toEqual([[{ inputTokens: 0, outputTokens: 0, totalTokens: 0, cost: 0, currency: 'USD' }]]);
  });

  it('maps Claude tool names back to the server they came from; other names are built-in tools', () => {
    const { events, of } = recording();
    const stream = new ClaudeStreamRecorder(events, new Map([['my.server', 'my_server']]), 'sonnet');
    const use = (name: string) => ({
      type: 'assistant',
      message: { id: 'm', content: [{ type: 'tool_use', id: `t-${name}`, name, input: {} }] },
    });
    replay(stream, [use('mcp__my_server__lookup'), use('Bash')]);

    expect(of('toolRequested').map(([c]) => c)).toEqual([
      { providerCallId: 't-mcp__my_server__lookup', server: 'my.server', tool: 'lookup', arguments: {} },
      { providerCallId: 't-Bash', server: null, tool: 'Bash', arguments: {} },
    ]);
  });
});
