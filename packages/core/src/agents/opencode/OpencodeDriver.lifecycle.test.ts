import { join } from 'node:path';
import { exampleServerBin } from '@sf-m3/example-servers';
import { MCPTestKit } from '../../kit/MCPTestKit';
import { StdioServer } from '../../servers/StdioServer';
import type { TraceEvent } from '../../trace/Event';
import { holdNextDeadline, sessionEventSeen } from '../heldDeadline.testkit';
import { alive, ensureBuilt, livePidsOf, pidsOnceSeen, tracedPids } from '@sf-m3/test-utils/agents';

const FAKE_OPENCODE = join(__dirname, '__fixtures__', 'fake-opencode.js');
const example = new StdioServer({ name: 'example', command: process.execPath, args: [exampleServerBin] });
const QUOTE = { tool: 'example_shipping_quote', arguments: { weight_kg: 2, zone: 'local' } };
const HANG = JSON.stringify({ calls: [QUOTE], hang: true });

beforeAll(ensureBuilt, 120_000);

/** Reads a handle's events until the turn's first tool call came back on the wire; returns the server pid and its descendants then. */
const pidsOncePrompted = (events: AsyncIterable<TraceEvent>): Promise<number[]> =>
  pidsOnceSeen(events, (event) => event.kind === 'tool.result_received' && event.turnId !== undefined);

/** The `POST /session/{id}/abort` answers the driver recorded. */
const aborts = (events: readonly TraceEvent[]) =>
  events
    .filter((e) => e.kind === 'provider.event' && e.payload.category === 'session_abort')
    .map((e) => e.payload.answer);

describe('opencode harness lifecycle', () => {
  let kit: MCPTestKit;
  beforeEach(() => {
    kit = new MCPTestKit();
  });
  afterEach(async () => {
    await kit.close();
  });

  const agent = (env: Record<string, string> = {}) =>
    kit.agents([{ harness: 'opencode', executable: FAKE_OPENCODE, models: ['opencode/big-pickle'], env }])[0]!;

  it('handle.cancel() aborts the OpenCode session and finishes cancelled, the call made so far kept', async () => {
    const handle = agent().submit(HANG, { servers: [example], timeoutMs: 30_000 });
    const pids = await pidsOncePrompted(handle.events());
    await handle.cancel();
    const result = await handle.result({ timeoutMs: 10_000 });

    expect(result.snapshot.outcome).toBe('cancelled');
    expect(result.turns[0]?.outcome).toBe('cancelled');
    expect(result.traceView.toolCalls.map((c) => [c.tool.value, c.wire.state, c.reported.state])).toEqual([
      ['shipping_quote', 'observed', 'observed'],
    ]);
    expect(aborts(result.trace.events)).toEqual([true]);
    expect(pids.length).toBeGreaterThanOrEqual(2);
    expect(alive([...pids, ...tracedPids(result.trace.events)])).toEqual([]);
  });

  it('a deadline finishes timed_out naming the stage and operation; the aborted turn is kept', async () => {
    // The deadline fires once the turn hangs, however long startup took on a loaded machine.
    const deadline = holdNextDeadline(2_500);
    const session = await agent().session({ servers: [example], timeoutMs: 2_500 });
    const pids = livePidsOf(session);
    const sent = session.send(HANG);
    await sessionEventSeen(session, (e) => e.kind === 'tool.result_received' && e.turnId !== undefined);
    deadline.fire();
    const turn = await sent;
    const result = await session.close();

    expect(turn.outcome).toBe('timed_out');
    expect(result.snapshot.outcome).toBe('timed_out');
    const [diagnostic] = result.traceView.diagnostics.filter((d) => d.code === 'execution_timeout');
    expect(diagnostic).toMatchObject({
      stage: 'waiting_for_harness_response',
      operation: 'POST /session/{id}/message',
    });
    expect(result.traceView.toolCalls).toHaveLength(1);
    expect(aborts(result.trace.events)).toEqual([true]);
    expect(alive([...pids, ...tracedPids(result.trace.events)])).toEqual([]);
  });

  it('a server that ignores SIGTERM is ended by SIGKILL to its group, MCP servers included', async () => {
    const handle = agent({ FAKE_OPENCODE_IGNORE_SIGTERM: '1' }).submit(HANG, { servers: [example], timeoutMs: 30_000 });
    const pids = await pidsOncePrompted(handle.events());
    await handle.cancel();
    const result = await handle.result({ timeoutMs: 10_000 });
    expect(result.snapshot.outcome).toBe('cancelled');
    const exited = result.traceView.processes.find((p) => p.pid.value === pids[0]);
    expect(exited?.signal.value).toBe('SIGKILL');
    expect(alive([...pids, ...tracedPids(result.trace.events)])).toEqual([]);
  });

  it('a server exiting mid-turn fails the turn and the execution with agent_exited and partial_trace', async () => {
    const session = await agent().session({ servers: [example], timeoutMs: 30_000 });
    const pids = livePidsOf(session);
    const turn = await session.send(JSON.stringify({ calls: [QUOTE], exit: 17 }));
    const later = await session.send('again');
    const result = await session.close();

    expect(turn.outcome).toBe('failed');
    expect(turn.error).toMatchObject({ code: 'agent_exited', details: { exitCode: 17, signal: null } });
    expect(later.outcome).toBe('failed');
    expect(result.snapshot.outcome).toBe('failed');
    expect(result.trace.limitations).toContain('partial_trace');
    expect(result.traceView.toolCalls[0]?.wire.state).toBe('observed');
    expect(alive([...pids, ...tracedPids(result.trace.events)])).toEqual([]);
  });

  it('a server that exits before listening fails the execution with agent_exited', async () => {
    const result = await agent({ FAKE_OPENCODE_EXIT_AT_START: '3' }).run('hi', { servers: [example] });
    expect(result.snapshot.outcome).toBe('failed');
    expect(result.error).toMatchObject({ code: 'agent_exited' });
    expect(result.error?.message).toMatch(/exited \(exit code 3\) before it listened/);
    expect(alive(tracedPids(result.trace.events))).toEqual([]);
  });

  it('kit.close() mid-turn cancels the execution and leaves no process behind', async () => {
    const handle = agent().submit(HANG, { servers: [example], timeoutMs: 30_000 });
    const pids = await pidsOncePrompted(handle.events());
    await kit.close();
    const result = await handle.result({ timeoutMs: 10_000 });
    expect(result.snapshot.outcome).toBe('cancelled');
    expect(alive([...pids, ...tracedPids(result.trace.events)])).toEqual([]);
  });
});
