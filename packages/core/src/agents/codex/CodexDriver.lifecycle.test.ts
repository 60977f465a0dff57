import type { TraceEvent } from '../../trace/Event';
import { MCPTestKit } from '../../kit/MCPTestKit';
import { holdNextDeadline, sessionEventSeen } from '../heldDeadline.testkit';
import {
  alive,
  ensureBuilt,
  example,
  fakeCodexAgent,
  harnessFrames,
  pidsOnceSeen,
  tracedPids,
} from '@sf-m3/test-utils/agents';

beforeAll(ensureBuilt, 120_000);

/** The turn is under way once Codex streamed its first delta (a raw frame from the harness). */
const streaming = (e: TraceEvent) =>
  e.kind === 'raw.frame' && e.direction === 'harness_to_sdk' && e.turnId !== undefined;
/** The stalling turn's text delta arrived (the notification is handled as its frame is recorded). */
const streamedDelta = (e: TraceEvent) => streaming(e) && JSON.stringify(e.payload).includes('item/agentMessage/delta');
const interrupts = (frames: Record<string, unknown>[]) => frames.filter((f) => f.method === 'turn/interrupt');

describe('codex harness lifecycle', () => {
  let kit: MCPTestKit;
  beforeEach(() => {
    kit = new MCPTestKit();
  });
  afterEach(async () => {
    await kit.close();
  });

  it('handle.cancel() sends turn/interrupt, keeps the streamed text and finishes cancelled', async () => {
    const handle = fakeCodexAgent(kit).submit('stall', { servers: [example], timeoutMs: 30_000 });
    const pids = await pidsOnceSeen(handle.events(), streaming);
    await handle.cancel();
    const result = await handle.result({ timeoutMs: 10_000 });

    expect(result.snapshot.outcome).toBe('cancelled');
    expect(result.turns[0]?.outcome).toBe('cancelled');
    expect(result.turns[0]?.response?.text).toBe('thinking');
    expect(interrupts(harnessFrames(result.traceView, 'sdk_to_harness'))).toHaveLength(1);
    expect(pids.length).toBeGreaterThanOrEqual(2); // app-server and the capture proxy it started
    expect(alive([...pids, ...tracedPids(result.trace.events)])).toEqual([]);
  });

  it('a deadline finishes timed_out with a diagnostic naming stage and operation, after turn/interrupt', async () => {
    // The deadline fires once the turn streamed and stalls, however long startup took.
    const deadline = holdNextDeadline(2_000);
    const session = await fakeCodexAgent(kit).session({ servers: [example], timeoutMs: 2_000 });
    const sent = session.send('stall');
    await sessionEventSeen(session, streamedDelta);
    deadline.fire();
    const turn = await sent;
    const result = await session.close();

    expect(turn.outcome).toBe('timed_out');
    expect(turn.response?.text).toBe('thinking');
    expect(result.snapshot.outcome).toBe('timed_out');
    const [diagnostic] = result.traceView.diagnostics.filter((d) => d.code === 'execution_timeout');
    expect(diagnostic).toMatchObject({
      stage: 'waiting_for_harness_response',
      operation: 'turn/start',
      timeoutMs: 2_000,
    });
    expect(interrupts(harnessFrames(result.traceView, 'sdk_to_harness'))).toHaveLength(1);
    expect(alive(tracedPids(result.trace.events))).toEqual([]);
  });

  it('Codex exiting mid-turn fails the turn and the execution with agent_exited and its exit code', async () => {
    const session = await fakeCodexAgent(kit).session({ servers: [example], timeoutMs: 30_000 });
    const turn = await session.send('call example:shipping_quote {"weight_kg":2,"zone":"local"}\nexit 3');
    const result = await session.close();

    expect(turn.outcome).toBe('failed');
    expect(turn.error).toMatchObject({ code: 'agent_exited', details: { exitCode: 3 } });
    expect(result.snapshot.outcome).toBe('failed');
    expect(result.traceView.limitations).toContain('partial_trace');
    // The call made before the exit is kept, on the wire and as reported.
    expect(result.traceView.toolCalls.map((c) => [c.tool.value, c.wire.state])).toEqual([
      ['shipping_quote', 'observed'],
    ]);
    expect(alive(tracedPids(result.trace.events))).toEqual([]);
  });

  it('a Codex that ignores turn/interrupt, stdin closing and SIGTERM is ended by SIGKILL with its children', async () => {
    const handle = fakeCodexAgent(kit, { env: { FAKE_CODEX_IGNORE_SIGTERM: '1' } }).submit('stall', {
      servers: [example],
      timeoutMs: 30_000,
    });
    const pids = await pidsOnceSeen(handle.events(), streaming);
    await handle.cancel();
    const result = await handle.result({ timeoutMs: 15_000 });

    expect(result.snapshot.outcome).toBe('cancelled');
    const exited = result.traceView.processes.find((p) => p.pid.value === pids[0]);
    expect(exited?.signal.value).toBe('SIGKILL');
    expect(result.traceView.limitations).not.toContain('cleanup_failed');
    expect(alive([...pids, ...tracedPids(result.trace.events)])).toEqual([]);
  });
});
