import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { exampleServerBin } from '@sf-m3/example-servers';
import type { TraceEvent } from '../../trace/Event';
import type { RawMessageEntry } from '../../trace/TraceEntry';
import { MCPTestKit } from '../../kit/MCPTestKit';
import { StdioServer } from '../../servers/StdioServer';
import { holdNextDeadline, sessionEventSeen } from '../heldDeadline.testkit';
import { agentPidOf, alive, ensureBuilt, livePidsOf, pidsOnceSeen, tracedPids } from '@sf-m3/test-utils/agents';
import { FAKE_CLAUDE, fakeClaudeAgent } from '@sf-m3/test-utils/agents';

const example = new StdioServer({ name: 'example', command: process.execPath, args: [exampleServerBin] });

beforeAll(ensureBuilt, 120_000);

/** Reads a handle's events until the first assistant message; returns the CLI's pid and descendants then. */
const pidsOnceAnswering = (events: AsyncIterable<TraceEvent>): Promise<number[]> =>
  pidsOnceSeen(events, (event) => event.kind === 'assistant.content');

const interruptsSent = (result: { traceView: { rawMessages: readonly RawMessageEntry[] } }) =>
  result.traceView.rawMessages.filter(
    (m) =>
      m.source === 'harness' && m.direction === 'sdk_to_harness' && String(m.preview.value).includes('"interrupt"'),
  );

describe('claude_code harness lifecycle (stream-json fixture)', () => {
  let kit: MCPTestKit;
  beforeEach(() => {
    kit = new MCPTestKit();
  });
  afterEach(async () => {
    await kit.close();
  });

  it('handle.cancel() sends the interrupt control request; the turn and the execution end cancelled', async () => {
    const handle = fakeClaudeAgent(kit).submit('[stall]', { servers: [example], timeoutMs: 30_000 });
    const pids = await pidsOnceAnswering(handle.events());
    await handle.cancel();
    const result = await handle.result({ timeoutMs: 10_000 });

    expect(result.snapshot.outcome).toBe('cancelled');
    expect(result.turns[0]?.outcome).toBe('cancelled');
    expect(interruptsSent(result)).toHaveLength(1);
    expect(pids.length).toBeGreaterThanOrEqual(1);
    expect(alive([...pids, ...tracedPids(result.trace.events)])).toEqual([]);
  });

  it('a deadline ends the turn timed_out with the text streamed so far and the stage it was in', async () => {
    // The deadline fires once the CLI answered and stalls, however long startup took.
    const deadline = holdNextDeadline(2_000);
    const session = await fakeClaudeAgent(kit).session({ servers: [example], timeoutMs: 2_000 });
    const sent = session.send('[stall]');
    await sessionEventSeen(session, (e) => e.kind === 'assistant.content');
    deadline.fire();
    const turn = await sent;
    const pids = livePidsOf(session);
    const result = await session.close();

    expect(turn.outcome).toBe('timed_out');
    expect(turn.response?.text).toBe('working on it');
    expect(result.snapshot.outcome).toBe('timed_out');
    const [diagnostic] = result.traceView.diagnostics.filter((d) => d.code === 'execution_timeout');
    expect(diagnostic).toMatchObject({ stage: 'waiting_for_harness_response', operation: 'stream-json user message' });
    expect(interruptsSent(result)).toHaveLength(1);
    expect(alive([...pids, ...tracedPids(result.trace.events)])).toEqual([]);
  });

  it('a CLI that exits mid-turn fails the turn and the execution with agent_exited', async () => {
    const session = await fakeClaudeAgent(kit).session({ servers: [example] });
    const turn = await session.send('[exit]');
    const result = await session.close();

    expect(turn.outcome).toBe('failed');
    expect(turn.error?.code).toBe('agent_exited');
    expect(turn.error?.message).toContain('exit code 3');
    expect(result.snapshot.outcome).toBe('failed');
    expect(result.traceView.messages.some((m) => m.role === 'assistant')).toBe(true); // the text before the exit
    expect(alive(tracedPids(result.trace.events))).toEqual([]);
  });

  it('a CLI that ignores the interrupt and SIGTERM is ended by SIGKILL to its group, MCP servers included', async () => {
    const agent = fakeClaudeAgent(kit, { env: { FAKE_CLAUDE_IGNORE_SIGTERM: '1' } });
    const handle = agent.submit(`[stall] call:process_id{}`, { servers: [example], timeoutMs: 30_000 });
    const pids = await pidsOnceAnswering(handle.events());
    await handle.cancel();
    const result = await handle.result({ timeoutMs: 15_000 });

    expect(result.snapshot.outcome).toBe('cancelled');
    const exited = result.traceView.processes.find((p) => p.pid.value === pids[0]);
    expect(exited?.signal.value).toBe('SIGKILL');
    expect(pids.length).toBeGreaterThanOrEqual(3); // the CLI, the capture proxy, the example server
    expect(alive([...pids, ...tracedPids(result.trace.events)])).toEqual([]);
  });

  it('a missing executable fails with TransportStartupError naming the npm package and the Node 20 way', async () => {
    const result = await fakeClaudeAgent(kit, { executable: '/nonexistent/claude' }).run('hi', { servers: [example] });

    expect(result.snapshot.outcome).toBe('failed');
    expect(result.error?.code).toBe('transport_startup_error');
    expect(result.error?.message).toContain('npm install -g @anthropic-ai/claude-code');
    expect(result.error?.message).toContain('cli.js of @anthropic-ai/claude-agent-sdk');
  });

  it('needs an API key unless the model endpoint is loopback; baseUrl is the origin', async () => {
    const noKey = await fakeClaudeAgent(kit, {
      baseUrl: 'https://models.example.com',
      apiKeyEnv: 'M3_CLAUDE_TEST_UNSET_KEY',
    }).run('hi', { servers: [example] });
    expect(noKey.snapshot.outcome).toBe('failed');
    expect(noKey.error?.message).toContain('M3_CLAUDE_TEST_UNSET_KEY, which is not set');
    expect(agentPidOf(noKey.trace.events)).toBeUndefined();
    expect(() => fakeClaudeAgent(kit, { baseUrl: 'http://127.0.0.1:9/v1' })).toThrow(/drop the \/v1/);
  });

  it('runs a .js executable without the exec bit with this Node', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'm3-claude-script-'));
    try {
      const script = join(dir, 'cli.js');
      await writeFile(script, `require(${JSON.stringify(FAKE_CLAUDE)});\n`, { mode: 0o644 });
      const result = await fakeClaudeAgent(kit, { executable: script }).run('hello', { servers: [example] });

      expect(result.snapshot.outcome).toBe('completed');
      expect(result.turns[0]?.response?.text).toBe('echo: hello');
      const cli = result.traceView.processes.find((p) => p.pid.value === agentPidOf(result.trace.events));
      expect(cli?.executable.value).toBe(basename(process.execPath));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
