// What the agent examples expect of a two-turn shipping session, whatever the harness: written once,
// the way a user shares one set of expectations between the agents they test.
import type { ExecutionResult, TurnResult } from 'sf-m3';

/**
 * Checks a session whose first turn quoted 2 kg local and whose second quoted 3 kg regional: each
 * `shipping_quote` call crossed the wire in its own turn (wire evidence, the default), and the
 * agent's own report of both calls agrees with the wire (correlated).
 */
export function expectLocalThenRegionalQuote(result: ExecutionResult, first: TurnResult, second: TurnResult): void {
  expect(result).toHaveToolCall('shipping_quote', {
    arguments: { weight_kg: 2, zone: 'local' },
    result: { structuredContent: { amount: 9, currency: 'USD' } },
    resultPartial: true,
    status: 'success',
    turn: first,
  });
  expect(result).toHaveToolCall('shipping_quote', { arguments: { weight_kg: 3, zone: 'regional' }, turn: second });
  expect(result).toHaveToolCalls(['shipping_quote', 'shipping_quote']);
  // The agent's own report (ACP tool_call updates, or the model's tool calls) agrees with the wire.
  expect(result).toHaveToolCall('shipping_quote', { evidence: 'reported', count: 2 });
  expect(result.traceView.toolCalls.map((call) => call.correlation)).toEqual(['correlated', 'correlated']);
}
