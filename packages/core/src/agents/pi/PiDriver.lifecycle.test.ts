import { exampleServerBin } from '@sf-m3/example-servers';
import { MCPTestKit } from '../../kit/MCPTestKit';
import { StdioServer } from '../../servers/StdioServer';
import type { TraceEvent } from '../../trace/Event';
import { holdNextDeadline, sessionEventSeen } from '../heldDeadline.testkit';
import { alive, ensureBuilt, FAKE_PI, livePidsOf, pidsOnceSeen, tracedPids } from './piHarness.testkit';

const example = new StdioServer({ name: 'example', command: process.execPath, args: [exampleServerBin] });
/** A tool call on the wire, then a partial answer, then nothing until abort. */
const HANG = 'call mcp_example_shipping_quote {"weight_kg":2,"zone":"local"}\nstream-and-hang';

beforeAll(ensureBuilt, 120_000);

/**
 * The assistant message of `stream-and-hang` started; the fixture writes its text delta in the same
 * write, and the driver reads both lines of one chunk before anything else runs.
 */
const partialAnswerStarted = (e: TraceEvent) =>
  e.kind === 'raw.frame' &&
  e.direction === 'harness_to_sdk' &&
  /"type":"message_start".*"role":"assistant"/.test(String(e.payload.preview));

/** Reads a handle's events until the tool result; returns the agent pid and its descendants then. */
const pidsOnceToolReturned = (events: AsyncIterable<TraceEvent>): Promise<number[]> =>
  pidsOnceSeen(events, (event) => event.kind === 'tool.result_received' && event.origin === 'harness_reported');

describe('pi harness lifecycle', () => {
  let kit: MCPTestKit;
  beforeEach(() => {
    kit = new MCPTestKit();
  });
  afterEach(async () => {
    await kit.close();
  });

  const pi = (extra: Record<string, unknown> = {}) =>
    kit.agents([{ harness: 'pi', executable: FAKE_PI, models: ['fake/model'], ...extra }])[0]!;

  it('handle.cancel() sends abort; the turn and the execution end cancelled with the partial answer', async () => {
    const handle = pi().submit(HANG, { servers: [example], timeoutMs: 30_000 });
    const pids = await pidsOnceToolReturned(handle.events());
    await handle.cancel();
    const result = await handle.result({ timeoutMs: 10_000 });

    expect(result.snapshot.outcome).toBe('cancelled');
    expect(result.turns[0]?.outcome).toBe('cancelled');
    const sent = result.traceView.rawMessages.filter((m) => m.source === 'harness' && m.direction === 'sdk_to_harness');
    expect(sent.some((m) => String(m.preview.value).includes('"type":"abort"'))).toBe(true);
    expect(result.traceView.toolCalls.map((c) => c.correlation)).toEqual(['correlated']);
    expect(pids.length).toBeGreaterThanOrEqual(3); // fake pi, the capture proxy, the example server
    expect(alive([...pids, ...tracedPids(result.trace.events)])).toEqual([]);
  });

  it('a deadline ends the turn timed_out with the streamed text kept and names the stage', async () => {
    // The deadline fires once the partial answer streamed, however long startup took.
    const deadline = holdNextDeadline(3_000);
    const session = await pi().session({ servers: [example], timeoutMs: 3_000 });
    const pids = livePidsOf(session);
    const sent = session.send(HANG);
    await sessionEventSeen(session, partialAnswerStarted);
    deadline.fire();
    const turn = await sent;
    const result = await session.close();

    expect(turn.outcome).toBe('timed_out');
    expect(turn.response?.text).toBe('partial answer');
    expect(result.snapshot.outcome).toBe('timed_out');
    const [diagnostic] = result.traceView.diagnostics.filter((d) => d.code === 'execution_timeout');
    expect(diagnostic).toMatchObject({ stage: 'waiting_for_harness_response', operation: 'prompt' });
    expect(alive([...pids, ...tracedPids(result.trace.events)])).toEqual([]);
  });

  it('Pi exiting mid-turn fails the turn and the execution with agent_exited and partial_trace', async () => {
    const session = await pi().session({ servers: [example], timeoutMs: 30_000 });
    const pids = livePidsOf(session);
    const turn = await session.send('call mcp_example_shipping_quote {"weight_kg":2,"zone":"local"}\nexit-mid-turn');
    const later = await session.send('again');
    const result = await session.close();

    expect(turn.outcome).toBe('failed');
    expect(turn.error).toMatchObject({ code: 'agent_exited', details: { exitCode: 3, signal: null } });
    expect(later.outcome).toBe('failed');
    expect(result.snapshot.outcome).toBe('failed');
    expect(result.trace.limitations).toContain('partial_trace');
    expect(result.traceView.toolCalls[0]?.reported.state).toBe('observed');
    expect(alive([...pids, ...tracedPids(result.trace.events)])).toEqual([]);
  });

  it('a Pi that ignores abort, SIGTERM and the end of stdin is ended with SIGKILL to its group', async () => {
    const handle = pi({ env: { FAKE_PI_IGNORE_SIGTERM: '1' } }).submit(
      'call mcp_example_shipping_quote {"weight_kg":2,"zone":"local"}\nstream-and-hang',
      { servers: [example], timeoutMs: 30_000 },
    );
    const pids = await pidsOnceToolReturned(handle.events());
    await handle.cancel();
    const result = await handle.result({ timeoutMs: 15_000 });
    expect(result.snapshot.outcome).toBe('cancelled');
    const exited = result.traceView.processes.find((p) => p.pid.value === pids[0]);
    expect(exited?.signal.value).toBe('SIGKILL');
    expect(alive([...pids, ...tracedPids(result.trace.events)])).toEqual([]);
  });

  it('a provider error and a refused prompt fail their turns; the session goes on', async () => {
    const session = await pi().session({ servers: [example], timeoutMs: 30_000 });
    const failed = await session.send('model-error');
    const refused = await session.send('refuse');
    const fine = await session.send('hello');
    const result = await session.close();

    expect(failed.outcome).toBe('failed');
    expect(failed.error).toMatchObject({ code: 'pi_model_error' });
    expect(failed.error?.message).toContain('500 the fake provider failed');
    expect(refused.error).toMatchObject({ code: 'pi_request_failed' });
    expect(fine.outcome).toBe('completed');
    expect(fine.response?.text).toBe('echo: hello');
    expect(result.snapshot.outcome).toBe('failed');
    const sent = result.traceView.rawMessages.filter((m) => m.source === 'harness' && m.direction === 'sdk_to_harness');
    expect(sent.map((m) => JSON.parse(String(m.preview.value)).type)).toEqual([
      'get_state',
      'prompt',
      'prompt',
      'prompt',
    ]);
  });

  it('a deadline during startup names harness_startup / get_state and ends the silent CLI', async () => {
    const result = await pi({ env: { FAKE_PI_SILENT: '1' } }).run('hello', { servers: [example], timeoutMs: 2_000 });
    expect(result.snapshot.outcome).toBe('timed_out');
    const [diagnostic] = result.traceView.diagnostics.filter((d) => d.code === 'execution_timeout');
    expect(diagnostic).toMatchObject({ stage: 'harness_startup', operation: 'get_state' });
    expect(alive(tracedPids(result.trace.events))).toEqual([]);
  });

  it('a CLI that never reports the sf-m3 extension fails startup naming it', async () => {
    const result = await pi({ env: { FAKE_PI_NO_STATUS: '1' } }).run('hello', {
      servers: [example],
      timeoutMs: 30_000,
    });
    expect(result.snapshot.outcome).toBe('failed');
    expect(result.error?.code).toBe('pi_extension_not_loaded');
    expect(alive(tracedPids(result.trace.events))).toEqual([]);
  });
});
