import { agentTurnId, buildAgentTrace } from '@sf-m3/test-utils/trace';
import { m3Matchers } from './index';
import { failureOf } from './matchers.testkit';

expect.extend(m3Matchers);

// An agent session: wire evidence from the kit's MCP capture proxy, reported evidence from the harness.
const agent = buildAgentTrace({
  runtime: 'openai',
  server: 'shop',
  turns: [
    {
      prompt: 'Quote a parcel',
      response: 'It costs 9 USD.',
      calls: [
        { tool: 'shipping_quote', arguments: { weight_kg: 2, zone: 'local' } },
        { tool: 'lookup', evidence: 'reported', arguments: { q: 'zones' } },
      ],
    },
    {
      prompt: 'And abroad?',
      calls: [
        {
          tool: 'shipping_quote',
          arguments: { weight_kg: 2, zone: 'intl' },
          reportedArguments: { weight_kg: 2, zone: 'abroad' },
          latencyMs: 80,
        },
        { tool: 'audit', evidence: 'wire' },
      ],
    },
  ],
});
const view = agent.view();

describe('matchers on an agent trace (wire and reported evidence, turns)', () => {
  test('wire evidence is the default; reported-only calls need evidence: reported or any', () => {
    expect(view).toHaveToolCalls(['shipping_quote', 'shipping_quote', 'audit']);
    expect(view).toHaveToolCalls(['shipping_quote', 'lookup', 'shipping_quote'], { evidence: 'reported' });
    expect(view).toHaveToolCalls(['shipping_quote', 'lookup', 'shipping_quote', 'audit'], { evidence: 'any' });
    expect(view).not.toHaveToolCall('lookup');
    expect(view).toHaveToolCall('lookup', { evidence: 'reported', arguments: { q: 'zones' } });
  });

  test('when wire and report disagree, each source shows its own arguments', () => {
    expect(view).toHaveToolCall('shipping_quote', { arguments: { zone: 'intl' }, argumentsPartial: true });
    expect(view).not.toHaveToolCall('shipping_quote', { arguments: { zone: 'abroad' }, argumentsPartial: true });
    expect(view).toHaveToolCall('shipping_quote', {
      evidence: 'reported',
      arguments: { zone: 'abroad' },
      argumentsPartial: true,
    });
    expect(view).toHaveToolCall('shipping_quote', {
      predicate: (call) => call.entry.conflicts.some((c) => c.field === 'arguments'),
      count: 1,
    });
  });

  test('turns narrow by selector and by TurnResult-like subject', () => {
    expect(view).toHaveToolCalls(['shipping_quote'], { turn: agentTurnId(0) });
    expect(view).toHaveToolCall('audit', { turn: { turnId: agentTurnId(1) } });
    expect(view).not.toHaveToolCall('audit', { turn: agentTurnId(0) });
    const turn = {
      turnId: agentTurnId(1),
      executionId: view.executionId,
      index: 1,
      prompt: 'And abroad?',
      outcome: 'completed' as const,
      response: { text: 'done', content: [{ type: 'text', text: 'done' }] },
      stopReason: 'end_turn',
      traceView: view,
    };
    expect(turn).toHaveToolCalls(['shipping_quote', 'audit']);
    expect(turn).toHaveToolCall('shipping_quote', { minLatencyMs: 50 });
    expect(turn).toHaveText('done');
    expect(turn).toHaveEvent('message');
  });

  test('latency is only known on the wire', () => {
    expect(view).not.toHaveToolCall('shipping_quote', { evidence: 'reported', maxLatencyMs: 1_000_000 });
    expect(view).toHaveToolCall('shipping_quote', { evidence: 'wire', minLatencyMs: 50, count: 1 });
  });

  test('the failure lists the calls of the chosen evidence and says how many are hidden', () => {
    const message = failureOf(() => expect(view).toHaveToolCall('lookup'));
    expect(message).toContain('Calls that happened (wire evidence):');
    expect(message).toContain("1 more call(s) have no wire evidence; pass { evidence: 'any' }");
  });
});
