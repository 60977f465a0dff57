// The viewer's shaping of a trace the claude_code driver really recorded (through its protocol
// fixture CLI and the capture proxy), not a hand-built one: the facts, a call the CLI refused.
import { MCPTestKit, type ToolCallEntry } from '@sf-m3/core';
import { StdioServer } from '../../../../core/src/servers/StdioServer';
import { ensureBuilt } from '../../../../core/src/agents/acp/acpHarness.testkit';
import { fakeClaudeAgent } from '../../../../core/src/agents/claude_code/claudeCode.testkit';
import { exampleServerBin } from '@sf-m3/example-servers';
import { runtimeFacts } from './runtimeFacts';

beforeAll(ensureBuilt, 120_000);

test('a claude_code session through the fixture CLI shows its version, session, model, usage and the refused call', async () => {
  const kit = new MCPTestKit();
  try {
    const example = new StdioServer({ name: 'example', command: process.execPath, args: [exampleServerBin] });
    const session = await fakeClaudeAgent(kit).session({ servers: [example], tools: ['example:shipping_quote'] });
    await session.send('call:get_order{"order_id":"o-1"} call:shipping_quote{"weight_kg":2,"zone":"local"}');
    const { traceView } = await session.close();
    const facts = Object.fromEntries(
      runtimeFacts(traceView.runtime, traceView.summary.usage).map((f) => [f.key, f.obs.value ?? f.obs.state]),
    );
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
