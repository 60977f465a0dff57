// The viewer's shaping of traces native drivers really recorded (through their protocol fixture
// CLIs and the capture proxy), not hand-built ones: the facts, a call the CLI refused, hidden reasoning.
import type { ToolCallEntry, TraceView } from '@sf-m3/core';
import { MCPTestKit } from '../../../../core/src/kit/MCPTestKit';
import { StdioServer } from '../../../../core/src/servers/StdioServer';
import { ensureBuilt } from '@sf-m3/test-utils/agents';
import { fakeClaudeAgent } from '@sf-m3/test-utils/agents';
import { fakeCodexAgent } from '@sf-m3/test-utils/agents';
import { exampleServerBin } from '@sf-m3/example-servers';
import { reasoningText } from './reasoningText';
import { runtimeFacts } from './runtimeFacts';

beforeAll(ensureBuilt, 120_000);

/** `key → value`, or the Observation state when there is no value. */
const factsOf = (view: TraceView): Record<string, string> =>
  Object.fromEntries(runtimeFacts(view.runtime, view.summary.usage).map((f) => [f.key, f.obs.value ?? f.obs.state]));

test('a claude_code session through the fixture CLI shows its version, session, model, usage and the refused call', async () => {
  const kit = new MCPTestKit();
  try {
    const example = new StdioServer({ name: 'example', command: process.execPath, args: [exampleServerBin] });
    const session = await fakeClaudeAgent(kit).session({ servers: [example], tools: ['example:shipping_quote'] });
    await session.send('call:get_order{"order_id":"o-1"} call:shipping_quote{"weight_kg":2,"zone":"local"}');
    const { traceView } = await session.close();
    const facts = factsOf(traceView);
    expect(facts).toMatchObject({
      kind: 'claude_code',
      agentName: 'claude-code',
      agentVersion: '2.1.44',
      model: expect.stringMatching(/^claude-/),
      sessionId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      currency: 'USD',
    });
    const calls = traceView.timeline.filter((e): e is ToolCallEntry => e.kind === 'tool_call');
    // Claude Code's own allow-list refuses get_order before it reaches the wire: a reported-only
    // call with the CLI's refusal as its result, and no policy verdict (nothing crossed the proxy).
    expect(calls.map((c) => [c.tool.value, c.correlation, c.status, c.policy?.decision ?? null])).toEqual([
      ['get_order', 'reported_only', 'tool_error', null],
      ['shipping_quote', 'correlated', 'success', 'allowed'],
    ]);
  } finally {
    await kit.close();
  }
});

test('a codex thread through the fixture CLI: its version and thread id, hidden reasoning, usage without a cost', async () => {
  const kit = new MCPTestKit();
  try {
    const example = new StdioServer({ name: 'example', command: process.execPath, args: [exampleServerBin] });
    const session = await fakeCodexAgent(kit).session({ servers: [example], timeoutMs: 30_000 });
    await session.send('call example:shipping_quote {"weight_kg":2,"zone":"local"}\nhidden-reasoning\nsay: 9 USD');
    const { traceView } = await session.close();
    const facts = factsOf(traceView);
    expect(facts).toMatchObject({
      kind: 'codex',
      agentName: 'codex',
      agentVersion: '0.171.0',
      agentDetails: expect.stringContaining('sandbox=readOnly'),
      model: 'gpt-5.6-sol',
      sessionId: expect.any(String),
      cost: 'not_emitted',
      currency: 'not_emitted',
    });
    expect(traceView.reasoning.map((r) => reasoningText(r.content))).toEqual([
      { text: null, state: 'provider_hidden', reason: 'provider_hidden', opaqueBlocks: [] },
    ]);
  } finally {
    await kit.close();
  }
});
