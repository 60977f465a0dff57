import { exampleServerBin } from '@sf-m3/example-servers';
import type { TraceEvent } from '../../trace/Event';
import { MCPTestKit } from '../../kit/MCPTestKit';
import { secretFromEnv } from '../../redaction/SecretRef';
import { StdioServer } from '../../servers/StdioServer';
import { holdNextDeadline, sessionEventSeen } from '../heldDeadline.testkit';
import {
  agentManifests,
  agentPidOf,
  alive,
  ensureBuilt,
  inProcessExample,
  livePidsOf,
  pidsOnceSeen,
  tracedPids,
} from '@sf-m3/test-utils/agents';

const example = new StdioServer({ name: 'example', command: process.execPath, args: [exampleServerBin] });

beforeAll(ensureBuilt, 120_000);

const firstChunk = (e: TraceEvent) => e.kind === 'assistant.content';

describe('acp harness lifecycle', () => {
  let kit: MCPTestKit;
  beforeEach(() => {
    kit = new MCPTestKit();
  });
  afterEach(async () => {
    await kit.close();
  });

  const agent = (manifest: { command: string; args: readonly string[] }, extra: Record<string, unknown> = {}) =>
    kit.agents([{ harness: 'acp', manifest, models: ['fixture'], ...extra }])[0]!;

  it('a deadline finishes the execution timed_out with a diagnostic naming stage and operation', async () => {
    // The deadline fires once the agent streamed and stalls, however long startup took.
    const deadline = holdNextDeadline(2_000);
    const session = await agent(agentManifests.stalling).session({ servers: [example], timeoutMs: 2_000 });
    const pids = livePidsOf(session);
    const sending = session.send('wait for me');
    await sessionEventSeen(session, firstChunk);
    deadline.fire();
    const turn = await sending;
    const result = await session.close();

    expect(turn.outcome).toBe('timed_out');
    expect(turn.response?.text).toBe('thinking'); // streamed before the deadline: kept, partial
    expect(result.snapshot.outcome).toBe('timed_out');
    expect(result.error?.code).toBe('timeout');
    const [diagnostic] = result.traceView.diagnostics.filter((d) => d.code === 'execution_timeout');
    expect(diagnostic).toMatchObject({
      stage: 'waiting_for_harness_response',
      operation: 'session/prompt',
      timeoutMs: 2_000,
    });
    // session/cancel went out before the process group was ended.
    const sent = result.traceView.rawMessages.filter((m) => m.source === 'acp' && m.direction === 'sdk_to_harness');
    expect(sent.some((m) => String(m.preview.value).includes('"session/cancel"'))).toBe(true);
    expect(alive([...pids, ...tracedPids(result.trace.events)])).toEqual([]);
  });

  it('handle.cancel() sends session/cancel and finishes cancelled', async () => {
    const handle = agent(agentManifests.stalling).submit('wait', { servers: [example], timeoutMs: 30_000 });
    const pids = await pidsOnceSeen(handle.events(), firstChunk);
    await handle.cancel();
    const result = await handle.result({ timeoutMs: 10_000 });

    expect(result.snapshot.outcome).toBe('cancelled');
    expect(result.turns[0]?.outcome).toBe('cancelled');
    const sent = result.traceView.rawMessages.filter((m) => m.direction === 'sdk_to_harness' && m.source === 'acp');
    expect(sent.some((m) => String(m.preview.value).includes('"session/cancel"'))).toBe(true);
    expect((await kit.store.getExecution(result.executionId)).outcome).toBe('cancelled');
    expect(pids.length).toBeGreaterThanOrEqual(1); // the stalling agent starts no MCP server
    expect(alive([...pids, ...tracedPids(result.trace.events)])).toEqual([]);
  });

  it('an agent that ignores cancel and SIGTERM is ended with its grandchild by SIGKILL to the group', async () => {
    const handle = agent(agentManifests.stallingIgnoringCancel).submit('wait', {
      servers: [example],
      timeoutMs: 30_000,
    });
    const pids = await pidsOnceSeen(handle.events(), firstChunk);
    await handle.cancel();
    const result = await handle.result({ timeoutMs: 10_000 });
    expect(result.snapshot.outcome).toBe('cancelled');
    expect(result.turns[0]?.outcome).toBe('cancelled');
    expect(result.turns[0]?.response?.text).toBe('thinking'); // the agent never answered the prompt
    const exited = result.traceView.processes.find((p) => p.pid.value === pids[0]);
    expect(exited?.signal.value).toBe('SIGKILL');
    expect(pids.length).toBeGreaterThanOrEqual(2); // the agent and its SIGTERM-proof grandchild
    expect(alive([...pids, ...tracedPids(result.trace.events)])).toEqual([]);
  });

  it('a deadline on an agent that never answers keeps the text it streamed (partial) in the timed-out turn', async () => {
    const deadline = holdNextDeadline(2_000);
    const session = await agent(agentManifests.stallingIgnoringCancel).session({
      servers: [example],
      timeoutMs: 2_000,
    });
    const pids = livePidsOf(session);
    const sending = session.send('wait for me');
    await sessionEventSeen(session, firstChunk);
    deadline.fire();
    const turn = await sending;
    const result = await session.close();

    expect(turn.outcome).toBe('timed_out');
    expect(turn.stopReason).toBeNull();
    expect(turn.response?.text).toBe('thinking');
    expect(result.turns[0]?.response?.text).toBe('thinking');
    expect(result.snapshot.outcome).toBe('timed_out');
    expect(alive([...pids, ...tracedPids(result.trace.events)])).toEqual([]);
  });

  it('an agent exiting mid-turn fails the turn and the execution with agent_exited and partial_trace', async () => {
    const session = await agent(agentManifests.exiting).session({ servers: [example], timeoutMs: 30_000 });
    const pids = livePidsOf(session);
    const turn = await session.send('Quote 2 kg local');
    const later = await session.send('again');
    const result = await session.close();

    expect(turn.outcome).toBe('failed');
    expect(turn.error).toMatchObject({
      code: 'agent_exited',
      details: { exitCode: 17, signal: null, method: 'session/prompt' },
    });
    expect(later.outcome).toBe('failed');
    expect(result.snapshot.outcome).toBe('failed');
    expect(result.error?.code).toBe('agent_exited');
    expect(result.trace.limitations).toContain('partial_trace');
    expect(result.traceView.toolCalls[0]?.reported.state).toBe('observed');
    const exit = result.traceView.processes.find((p) => p.pid.value === pids[0]);
    expect(exit?.exitCode.value).toBe(17);
    expect(alive([...pids, ...tracedPids(result.trace.events)])).toEqual([]);
  });

  it('kit.close() mid-turn cancels the execution and leaves no process behind', async () => {
    const handle = agent(agentManifests.stalling).submit('wait', { servers: [example], timeoutMs: 30_000 });
    const pids = await pidsOnceSeen(handle.events(), firstChunk);
    await kit.close();
    const result = await handle.result({ timeoutMs: 10_000 });
    expect(result.snapshot.outcome).toBe('cancelled');
    expect(result.error?.message).toMatch(/kit was closed while a turn was running/);
    expect(alive([...pids, ...tracedPids(result.trace.events)])).toEqual([]);
  });

  it('a deadline during startup names harness_startup / initialize and ends the silent agent', async () => {
    const silent = { command: process.execPath, args: ['-e', 'setInterval(() => {}, 1000)'] };
    const result = await agent(silent).run('hi', { servers: [example], timeoutMs: 1_500 });
    expect(result.snapshot.outcome).toBe('timed_out');
    const [diagnostic] = result.traceView.diagnostics.filter((d) => d.code === 'execution_timeout');
    expect(diagnostic).toMatchObject({ stage: 'harness_startup', operation: 'initialize' });
    expect(agentPidOf(result.trace.events)).toBeDefined();
    expect(alive(tracedPids(result.trace.events))).toEqual([]);
  });

  it('an agent that exits at once fails with agent_exited; its stderr is kept, redacted', async () => {
    process.env.M3_ACP_STDERR_SECRET = 'stderr-secret-4b1d9e';
    try {
      const dying = {
        command: process.execPath,
        args: ['-e', 'process.stderr.write("boom " + process.env.K + "\\n"); process.exit(3)'],
        env: { K: secretFromEnv('M3_ACP_STDERR_SECRET') },
      };
      const result = await agent(dying).run('hi', { servers: [example] });
      expect(result.snapshot.outcome).toBe('failed');
      expect(result.error).toMatchObject({ code: 'agent_exited', details: { exitCode: 3, method: 'initialize' } });
      const [exit] = result.traceView.processes.filter((p) => p.pid.value === agentPidOf(result.trace.events));
      expect(exit?.exitCode.value).toBe(3);
      expect(exit?.stderr.value?.preview).toBe('boom [REDACTED]\n');
      expect(JSON.stringify(result.trace.events)).not.toContain('stderr-secret-4b1d9e');
    } finally {
      delete process.env.M3_ACP_STDERR_SECRET;
    }
  });

  it('answers permission requests from the tool policy and records them', async () => {
    const allowed = await agent(agentManifests.permission).run('Quote 2 kg local', {
      servers: [example],
      tools: ['example:shipping_quote'],
    });
    expect(allowed.turns[0]?.response?.text).not.toMatch(/permission denied/);
    expect(allowed.traceView.toolCalls.map((c) => c.status)).toEqual(['success']);
    const [granted] = allowed.traceView.interactions;
    expect(granted).toMatchObject({ interactionKind: 'permission' });
    expect(granted!.response.value).toEqual({ outcome: { outcome: 'selected', optionId: 'allow' } });

    const denied = await agent(agentManifests.permission).run('Quote 2 kg local', { servers: [example], tools: [] });
    expect(denied.turns[0]?.response?.text).toBe('permission denied for example:shipping_quote');
    expect(denied.traceView.toolCalls).toEqual([]);
    expect(denied.traceView.interactions[0]!.response.value).toEqual({ outcome: { outcome: 'cancelled' } });
    expect(alive([...tracedPids(allowed.trace.events), ...tracedPids(denied.trace.events)])).toEqual([]);
  });

  it('refuses fs requests unless the selection has a fileSystem handler', async () => {
    // About the fs handler, not the server: the example server runs in process (no server processes).
    const refused = await agent(agentManifests.permission).run('read file /etc/hostname', {
      servers: [inProcessExample()],
    });
    expect(refused.snapshot.outcome).toBe('completed');
    expect(refused.turns[0]?.response?.text).toMatch(/^read \/etc\/hostname failed: .*fileSystem: \{ readTextFile \}/);

    const reads: string[] = [];
    const served = await agent(agentManifests.permission, {
      fileSystem: { readTextFile: (path: string) => (reads.push(path), 'from the test') },
    }).run('read file /virtual/notes.txt', { servers: [inProcessExample()] });
    expect(served.turns[0]?.response?.text).toBe('read /virtual/notes.txt: from the test');
    expect(reads).toEqual(['/virtual/notes.txt']);
  });
});
