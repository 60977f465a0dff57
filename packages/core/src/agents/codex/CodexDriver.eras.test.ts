// A native CLI's MCP era through the capture proxy (contract §23, §14): the fake Codex connects to
// the SDK v2 fixture server with the 2025-only v1 SDK client, as Codex does.
import { MCPTestKit } from '../../kit/MCPTestKit';
import { TraceView } from '../../trace/TraceView';
import { v2Stdio } from '@sf-m3/test-utils/client';
import { fakeCodexAgent } from '@sf-m3/test-utils/agents';

describe('the codex harness against an SDK v2 server', () => {
  let kit: MCPTestKit;
  beforeEach(() => {
    kit = new MCPTestKit();
  });
  afterEach(() => kit.close());

  it('records on its runtime entry the revision it negotiated with each server', async () => {
    const server = v2Stdio('both');
    const result = await fakeCodexAgent(kit).run(`call ${server.name}:echo {"text":"hi"}`, {
      servers: [server],
      timeoutMs: 30_000,
    });
    expect(result.snapshot.outcome).toBe('completed');
    expect(result.turns[0]?.response?.text).toContain('echo: legacy: hi');
    const view = result.traceView;
    expect(view.runtime).toMatchObject({
      kind: 'codex',
      mcpServers: { state: 'observed', value: [{ server: server.name, era: 'legacy', protocolVersion: '2025-11-25' }] },
    });
    // The stored form of the view keeps it.
    expect(TraceView.fromData(JSON.parse(JSON.stringify(view.toJSON()))).runtime).toEqual(view.runtime);
    expect(view.timeline.filter((e) => e.kind === 'initialization')).toMatchObject([
      {
        server: server.name,
        era: { value: 'legacy' },
        protocolVersion: { value: '2025-11-25' },
        serverName: { value: 'v2-era-server' },
      },
    ]);
  });

  it('fails against a modern-only server with an error that says the eras do not meet', async () => {
    const server = v2Stdio('modern-only');
    const result = await fakeCodexAgent(kit).run(`call ${server.name}:echo {"text":"hi"}`, {
      servers: [server],
      timeoutMs: 30_000,
    });
    expect(result.snapshot.outcome).toBe('failed');
    expect(result.error).toMatchObject({
      code: 'codex_mcp_startup_failed',
      details: { server: server.name, cause: 'era_mismatch' },
    });
    expect(result.error!.message).toContain(
      `the agent's MCP client speaks only the 2025 protocol (its initialize asked for 2025-11-25), but MCP server ${server.name} serves only 2026-07-28`,
    );
    expect(
      result.trace.events.filter((e) => e.kind === 'diagnostic' && e.payload.code === 'era_mismatch'),
    ).toHaveLength(1);
    expect(result.traceView.runtime).not.toHaveProperty('mcpServers');
  });
});
