// Issue 12's shipping suite on the four native harnesses: one `describe.m3` whose agents are Claude
// Code, Codex, OpenCode and Pi, run as
//   m3 test --harness claude_code=sonnet --harness codex=gpt-5.6-sol \
//           --harness opencode=fake/shipper --harness pi=fake/shipper
// so each `test.m3` runs once per harness (and model, and trial), each driving the real CLI against
// the example server (as `shipping`) through the kit's capture proxy. Opt-in:
// `npm run e2e:real-agents -- --only shipping` starts one FakeModelServer (answering Anthropic
// Messages, Responses and Chat Completions by content: examples/fixtures/shipping) and hands this
// suite its native entries — `{ harness, models, executable, baseUrl }` — in M3_SHIPPING_NATIVE_AGENTS.
import type { ExecutionResult, TurnResult, UsageValue } from 'sf-m3';
import {
  AMOUNTS,
  PROMPTS,
  USAGE_REPLY,
  ZONES_ANSWER,
  evaluateShippingAnswer,
} from '../fixtures/shipping/shippingModel';
import type { ShippingAnswer } from '../fixtures/shipping/shippingModel';
import { shippingServer } from '../suites/servers';
import { expectLocalThenRegionalQuote } from '../suites/shippingQuotes';

const AGENTS_ENV = 'M3_SHIPPING_NATIVE_AGENTS';
const EVALUATOR = 'example.shipping_answer.v1';
const TIMEOUT_MS = 150_000;

/** The suite's agents entries, from the runner; a clear error when the suite is run on its own. */
function nativeAgents(): Record<string, unknown>[] {
  const raw = process.env[AGENTS_ENV];
  if (raw === undefined || raw === '') {
    throw new Error(
      `${AGENTS_ENV} is not set: run this suite through \`npm run e2e:real-agents -- --only shipping\`, ` +
        'which starts the fake model and sets it to [{ harness, models, executable, baseUrl }, ...]',
    );
  }
  const entries = JSON.parse(raw) as unknown;
  if (!Array.isArray(entries) || entries.some((e) => typeof (e as { harness?: unknown })?.harness !== 'string')) {
    throw new Error(`${AGENTS_ENV} must be a JSON list of { harness, models, executable, baseUrl } entries`);
  }
  return entries as Record<string, unknown>[];
}

/**
 * The usage case's totals as each CLI reports them (docs/harness-<kind>.md) for one answer the fake
 * counted as 1200 input and 34 output tokens. Claude Code passes the tokens on and prices them itself
 * in USD (2.1.44's price for the model `sonnet` resolves to, claude-sonnet-4-5-20250929: 0.00685 USD);
 * Codex reports tokens and reasoning tokens, its code-mode discovery round included (the fake's
 * default 10 + 5 tokens), and never a cost; OpenCode reports tokens, reasoning tokens and a bare cost
 * of 0 (no currency) for a model it has no price for; Pi reports tokens and a USD cost of 0 (it prices
 * only models it knows), no reasoning tokens.
 */
function expectedUsage(kind: string): UsageValue {
  const input = USAGE_REPLY.promptTokens;
  const output = USAGE_REPLY.completionTokens;
  const tokens = { inputTokens: input, outputTokens: output, totalTokens: input + output };
  switch (kind) {
    case 'claude_code':
      return { ...tokens, reasoningTokens: null, cost: expect.closeTo(0.00685, 8) as number, currency: 'USD' };
    case 'codex':
      return {
        inputTokens: input + 10,
        outputTokens: output + 5,
        totalTokens: input + output + 15,
        reasoningTokens: 0,
        cost: null,
        currency: null,
      };
    case 'opencode':
      return { ...tokens, reasoningTokens: 0, cost: 0, currency: null };
    case 'pi':
      return { ...tokens, reasoningTokens: null, cost: 0, currency: 'USD' };
    default:
      throw new Error(`no usage expectation for harness ${kind}`);
  }
}

describe.m3('shipping', { agents: nativeAgents() }, () => {
  /**
   * Scores `turn`'s answer with the suite's evaluator, first, so the summary's pass rates per harness
   * and model count a wrong answer too (the assertions after it then fail the test).
   */
  async function evaluateAnswer(
    kit: import('sf-m3').MCPTestKit,
    result: ExecutionResult,
    turn: TurnResult,
    expectedAmounts: number[],
  ): Promise<void> {
    kit.registerEvaluator(EVALUATOR, evaluateShippingAnswer);
    const subject: ShippingAnswer = { answer: turn.response?.text ?? '', expectedAmounts };
    const verdict = await kit.evaluate(subject, EVALUATOR, { executionId: result.executionId, turnId: turn.turnId });
    expect([verdict.status, verdict.rationale]).toEqual(['passed', 'every amount stated']);
  }

  test.m3('quotes two parcels in one session, a shipping_quote on the wire in each turn', async ({ kit, agent }) => {
    const session = await agent!.session({ servers: [shippingServer], timeoutMs: TIMEOUT_MS });
    const first = await session.send(PROMPTS.local);
    const second = await session.send(PROMPTS.regional);
    const result = await session.close();
    await evaluateAnswer(kit, result, second, [AMOUNTS.regional]);

    expect(result).toBeCompleted();
    expect(result.traceView.runtime.kind).toBe(agent!.harness);
    expectLocalThenRegionalQuote(result, first, second);
    // What the agent said: the fake's answer from each wire result, relayed by the CLI.
    expect(first.response?.text).toContain(`${AMOUNTS.local} USD`);
    expect(second.response?.text).toContain(`${AMOUNTS.regional} USD`);
    const said = result.traceView.messages.filter((m) => m.role === 'assistant').map((m) => m.text);
    expect(said).toEqual(expect.arrayContaining([`The quote is ${AMOUNTS.local} USD.`]));
  });

  test.m3('keeps a tool outside the run policy off the server', async ({ kit, agent }) => {
    // The model asks for normalize_customer too; only shipping_quote is allowed.
    const result = await agent!.run(PROMPTS.policy, {
      servers: [shippingServer],
      tools: ['shipping:shipping_quote'],
      timeoutMs: TIMEOUT_MS,
    });
    const turn = result.turns[0]!;
    await evaluateAnswer(kit, result, turn, [AMOUNTS.policy]);

    expect(result).toBeCompleted();
    expect(result).toHaveToolCall('shipping_quote', {
      server: 'shipping',
      arguments: { weight_kg: 5, zone: 'international' },
      status: 'success',
    });
    // The server never received normalize_customer: no successful wire call of it, and any attempt
    // that reached the wire was refused there by the capture proxy.
    expect(result).not.toHaveToolCall('normalize_customer', { status: 'success' });
    const onTheWire = result.traceView.toolCalls.filter(
      (call) => call.tool.value === 'normalize_customer' && call.wire.state === 'observed',
    );
    expect(onTheWire.map((call) => call.policy?.decision)).toEqual(onTheWire.map(() => 'denied'));
    const wireNames = result.trace.events
      .filter((event) => event.kind === 'tool.call_requested' && event.origin === 'wire_observed')
      .map((event) => (event.payload as { params?: { name?: unknown } }).params?.name);
    expect(wireNames.filter((name) => name === 'shipping_quote')).toEqual(['shipping_quote']);
    expect(turn.response?.text).toContain(`${AMOUNTS.policy} USD`);
  });

  test.m3('reports usage, and cost where the CLI reports one', async ({ agent }) => {
    const result = await agent!.run(PROMPTS.usage, { servers: [shippingServer], timeoutMs: TIMEOUT_MS });

    expect(result).toBeCompleted();
    expect(result.turns[0]?.response?.text).toBe(ZONES_ANSWER);
    const usage = result.traceView.summary.usage;
    expect(usage.state).toBe('observed');
    expect(usage.value).toEqual(expectedUsage(agent!.harness));
  });
});
