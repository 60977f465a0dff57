import { setImmediate as macrotask } from 'node:timers/promises';
import { KitResources } from '../kit/KitResources';
import { createAgentHost } from '../kit/kitHosts';
import { Redactor } from '../redaction/Redactor';
import { StdioServer } from '../servers/StdioServer';
import { InMemoryExecutionStore } from '../store/InMemoryExecutionStore';
import type { AgentHost } from './AgentHost';
import { resolveRunOptions } from './agentOptions';
import { AgentSession } from './AgentSession';
import type { HarnessContext, HarnessDriver, HarnessTurnEnd } from './HarnessDriver';
import { holdNextDeadline, type HeldDeadline } from './heldDeadline.testkit';

/** Settles when the execution ends (deadline, cancel, close): what a harness waiting on the agent does. */
const untilAborted = (ctx: HarnessContext): Promise<never> =>
  new Promise((_, reject) => ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason)));

/**
 * A harness that stalls where the test says (its startup, or the start of a turn, before it names a
 * stage of its own) until the execution ends, and whose close waits for the test: the order of open,
 * deadline, send and close is the test's, not the clock's.
 */
class SteppedDriver implements HarnessDriver {
  readonly runtime = 'openai' as const;
  readonly turns: string[] = [];
  private releaseClose: () => void = () => undefined;
  private readonly closeReleased = new Promise<void>((resolve) => (this.releaseClose = resolve));
  private markStalled: () => void = () => undefined;
  /** Resolves once the driver is stalled where it was told to. */
  readonly stalled = new Promise<void>((resolve) => (this.markStalled = resolve));

  constructor(private readonly stallsIn: 'open' | 'turn') {}

  open(ctx: HarnessContext): Promise<void> {
    ctx.setStage({ stage: 'harness_startup', operation: 'launch' });
    if (this.stallsIn !== 'open') return Promise.resolve();
    this.markStalled();
    return untilAborted(ctx);
  }

  async runTurn(ctx: HarnessContext, turn: { prompt: string }): Promise<HarnessTurnEnd> {
    this.turns.push(turn.prompt);
    if (this.stallsIn !== 'turn') return { text: 'ran', stopReason: 'end_turn' };
    this.markStalled();
    await untilAborted(ctx).catch(() => undefined);
    return { text: null, stopReason: null };
  }

  /** Lets `close` finish. */
  finishClose(): void {
    this.releaseClose();
  }

  close(): Promise<void> {
    return this.closeReleased;
  }
}

const TIMEOUT_MS = 2_500;
// Never started: the stepped harness starts no server.
const server = new StdioServer({ name: 'example', command: process.execPath, args: ['-e', ''] });

/** A kit's agent host over an in-memory store, its sessions tracked in `resources`. */
function agentHost(resources: KitResources): AgentHost {
  return createAgentHost(
    {
      redactor: new Redactor(),
      store: new InMemoryExecutionStore(),
      linkTarget: {},
      resources,
      evaluationsFor: () => [],
    },
    {
      runId: 'run-1',
      suiteName: null,
      caseId: null,
      attemptId: null,
      labels: {},
      executionTimeoutMs: undefined,
      assertOpen: () => undefined,
    },
  );
}

let resources: KitResources;
let host: AgentHost;
let held: HeldDeadline;
beforeEach(() => {
  resources = new KitResources();
  host = agentHost(resources);
  held = holdNextDeadline(TIMEOUT_MS);
});
afterEach(() => held.restore());

const newSession = (driver: HarnessDriver) =>
  new AgentSession(
    host,
    { harness: 'openai', model: 'fixture', trial: 1, endpointHost: null },
    resolveRunOptions({ servers: [server], timeoutMs: TIMEOUT_MS }),
    driver,
  );

describe('AgentSession: a send after the execution ended before its turn', () => {
  it('a deadline during startup: the send resolves timed_out with the deadline error while the harness is still closing', async () => {
    const driver = new SteppedDriver('open');
    const session = newSession(driver);
    const opening = session.open();
    await driver.stalled;
    held.fire();
    await opening; // open gave up at the deadline; the harness is not closed yet
    const sent = session.send('hi');
    await macrotask(); // all a send can do before the harness has closed is done
    driver.finishClose();
    const turn = await sent;
    const result = await session.close();

    expect(turn.outcome).toBe('timed_out');
    expect(turn.error?.code).toBe('timeout');
    expect(driver.turns).toEqual([]);
    expect(result.snapshot.outcome).toBe('timed_out');
    expect(result.traceView.diagnostics.find((d) => d.code === 'execution_timeout')).toMatchObject({
      stage: 'harness_startup',
      operation: 'launch',
    });
  });

  it('kit.close() during startup: the send resolves cancelled while the harness is still closing', async () => {
    const driver = new SteppedDriver('open');
    const session = newSession(driver);
    const opening = session.open();
    await driver.stalled;
    const kitClosed = resources.closeAll(host.store);
    await opening;
    const sent = session.send('hi');
    await macrotask();
    driver.finishClose();
    const turn = await sent;
    await kitClosed;

    expect(turn.outcome).toBe('cancelled');
    expect(turn.error?.message).toMatch(/kit was closed while the session was opening/);
    expect(driver.turns).toEqual([]);
    expect(session.result?.snapshot.outcome).toBe('cancelled');
  });
});

describe('AgentSession: the stage a deadline names', () => {
  it('a deadline as a turn starts, before the harness names its stage, names turn_start, not idle', async () => {
    const driver = new SteppedDriver('turn');
    const session = await newSession(driver).open();
    const sent = session.send('hi');
    await driver.stalled;
    held.fire();
    driver.finishClose();
    const turn = await sent;
    const result = await session.close();

    expect(turn.outcome).toBe('timed_out');
    expect(result.traceView.diagnostics.find((d) => d.code === 'execution_timeout')).toMatchObject({
      stage: 'turn_start',
      operation: 'begin turn',
    });
  });
});
