// contract §23: an agent whose MCP client speaks only 2025 against a server that serves only
// 2026-07-28 fails with a diagnostic that says exactly that. The fake Claude Code connects with the
// 2025-only v1 SDK client and, as the real CLI does, carries on without a server it could not
// reach; the session fails the turn with the capture layer's words.
import { MCPTestKit } from '../../kit/MCPTestKit';
import { v2Stdio } from '@sf-m3/test-utils/client';
import { fakeClaudeAgent } from '@sf-m3/test-utils/agents';

describe('the claude_code harness against an SDK v2 server', () => {
  let kit: MCPTestKit;
  beforeEach(() => {
    kit = new MCPTestKit();
  });
  afterEach(() => kit.close());

  it('reaches a both-eras server in the 2025 era', async () => {
    const server = v2Stdio('both');
    const result = await fakeClaudeAgent(kit).run('call:echo{"text":"hi"}', { servers: [server], timeoutMs: 30_000 });
    expect(result.snapshot.outcome).toBe('completed');
    expect(result.traceView.runtime).toMatchObject({
      mcpServers: { value: [{ server: server.name, era: 'legacy', protocolVersion: '2025-11-25' }] },
    });
  });

  it('fails against a modern-only server with an error that says the eras do not meet', async () => {
    const server = v2Stdio('modern-only');
    const result = await fakeClaudeAgent(kit).run('call:echo{"text":"hi"}', { servers: [server], timeoutMs: 30_000 });
    expect(result.snapshot.outcome).toBe('failed');
    expect(result.error).toMatchObject({ code: 'era_mismatch', details: { server: server.name } });
    expect(result.error!.message).toContain(
      `the agent's MCP client speaks only the 2025 protocol (its initialize asked for 2025-11-25), but MCP server ${server.name} serves only 2026-07-28`,
    );
    expect(result.turns[0]).toMatchObject({ outcome: 'failed', error: { code: 'era_mismatch' } });
  });
});
