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

/**
 * A harness whose startup never ends on its own (it ends when the execution does) and whose close
 * waits for the test: the order of open, deadline, send and close is the test's, not the clock's.
 */
class StalledStartupDriver implements HarnessDriver {
  readonly runtime = 'openai' as const;
  readonly turns: string[] = [];
  private releaseClose: () => void = () => undefined;
  private readonly closeReleased = new Promise<void>((resolve) => (this.releaseClose = resolve));
  private markOpened: () => void = () => undefined;
  /** Resolves once `open` is waiting at its startup stage. */
  readonly opened = new Promise<void>((resolve) => (this.markOpened = resolve));

  open(ctx: HarnessContext): Promise<void> {
    ctx.setStage({ stage: 'harness_startup', operation: 'launch' });
    this.markOpened();
    return new Promise((_, reject) => ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason)));
  }

  runTurn(_ctx: HarnessContext, turn: { prompt: string }): Promise<HarnessTurnEnd> {
    this.turns.push(turn.prompt);
    return Promise.resolve({ text: 'ran', stopReason: 'end_turn' });
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

describe('AgentSession: a send after the execution ended before its turn', () => {
  let resources: KitResources;
  let host: AgentHost;
  let held: HeldDeadline;
  beforeEach(() => {
    resources = new KitResources();
    host = createAgentHost(
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
    held = holdNextDeadline(TIMEOUT_MS);
  });
  afterEach(() => held.restore());

  // Never started: the harness never gets past its startup.
  const server = new StdioServer({ name: 'example', command: process.execPath, args: ['-e', ''] });
  const newSession = (driver: HarnessDriver) =>
    new AgentSession(
      host,
      { harness: 'openai', model: 'fixture', trial: 1, endpointHost: null },
      resolveRunOptions({ servers: [server], timeoutMs: TIMEOUT_MS }),
      driver,
    );

  it('a deadline during startup: the send resolves timed_out with the deadline error while the harness is still closing', async () => {
    const driver = new StalledStartupDriver();
    const session = newSession(driver);
    const opening = session.open();
    await driver.opened;
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
    const driver = new StalledStartupDriver();
    const session = newSession(driver);
    const opening = session.open();
    await driver.opened;
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
