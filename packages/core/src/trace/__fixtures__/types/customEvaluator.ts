// Type fixture (compiled by readToolCall.types.test.ts against the built `sf-m3` entry, never run):
// the custom-evaluator example of the root README and packages/core/docs/evaluations.md, verbatim
// between the markers. Keep the three in step.
import type {} from 'sf-m3/globals';
import { readToolCall, StdioServer } from 'sf-m3';

// --- example start
const shipping = new StdioServer({ name: 'shipping', command: 'node', args: ['dist/server.js'] });

test('every shipping quote is in USD', async () => {
  m3Kit.registerEvaluator('shipping.quotes_in_usd.v1', (ctx) => {
    // readToolCall: a call's fields as plain values, undefined when the trace kept none
    const quotes = (ctx.trace?.toolCalls ?? [])
      .map((call) => readToolCall(call))
      .filter((call) => call.tool === 'shipping_quote');
    if (quotes.length === 0) return { status: 'not_run', rationale: 'no shipping_quote call' };
    const inUsd = quotes.filter((q) => (q.structuredContent as { currency?: string })?.currency === 'USD');
    // content blocks are typed: after `block.type === 'text'`, `block.text` is a string
    const texts = quotes.flatMap((q) => q.content ?? []).flatMap((b) => (b.type === 'text' ? [b.text] : []));
    return {
      status: inUsd.length === quotes.length ? 'passed' : 'failed',
      score: inUsd.length / quotes.length,
      rationale: `${inUsd.length}/${quotes.length} in USD; first text: ${texts[0] ?? 'none'}`,
    };
  });

  const client = await m3Kit.direct(shipping).connect();
  await client.callTool('shipping_quote', { weight_kg: 2, zone: 'local' });
  await client.close();
  const quote = readToolCall(client.finalTrace.view().toolCalls[0]!);
  expect(quote.arguments).toEqual({ weight_kg: 2, zone: 'local' });
  expect(quote.text).toContain('USD');
  await m3Kit.evaluate(client.result, 'shipping.quotes_in_usd.v1', { required: true });
});
// --- example end
