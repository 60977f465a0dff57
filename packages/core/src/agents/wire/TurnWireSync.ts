import { ServerCassettes } from '../../cassettes/servers/ServerCassettes';
import type { HarnessContext } from '../HarnessDriver';
import type { AgentProcess } from '../process/AgentProcess';
import { AgentServerGroup } from './AgentServerGroup';

/** How often wire evidence is read while a turn runs. */
const SYNC_INTERVAL_MS = 100;
/**
 * How often, in sync ticks, the agent's descendants are noted while a turn runs (once a second).
 * Each note reads the whole process table (every `/proc/<pid>/stat` on Linux), which costs
 * milliseconds per read on a busy machine; the capture proxies and their servers do not depend on
 * it (each proxy reports its own and its server's pid, and the group reaps them by pid).
 */
const DESCENDANT_SCAN_TICKS = 10;

/**
 * The capture proxies of one agent session and the reading of their evidence into the trace:
 * serialized (a read asked for while one runs queues one more, never two), attributed to the turn
 * started last, on a timer while a turn runs, and settled at every turn boundary so what was
 * captured before a turn starts stays with the turn before it.
 */
export class TurnWireSync {
  /** The capture proxies (`start` them to get the descriptors the agent is given). */
  readonly group: AgentServerGroup;
  /**
   * The turn wire evidence belongs to: the latest one started. The proxy records a frame before the
   * agent can see its answer, so this only guards against a late read, not a late capture.
   */
  private turnId: string | undefined;
  private syncing: Promise<void> = Promise.resolve();
  private queued = false;
  private timer: NodeJS.Timeout | undefined;

  constructor(ctx: HarnessContext) {
    const { recorder, redactor, logger } = ctx;
    const { servers, policies } = ctx.options;
    const scope = () => ({ sessionId: ctx.sessionId, ...(this.turnId !== undefined && { turnId: this.turnId }) });
    // `cassettes: { servers: true }` (contract §24): stdio servers recorded, or replayed unstarted.
    const cassettes = ServerCassettes.forExecution(ctx.cassette, redactor);
    this.group = new AgentServerGroup({ servers, policies, recorder, redactor, logger, scope, cassettes });
  }

  /** Reads the proxies' captures now (serialized; a call while one runs queues one more). */
  sync(): void {
    if (this.queued) return;
    this.queued = true;
    this.syncing = this.syncing
      .then(() => {
        this.queued = false;
        return this.group.sync();
      })
      .catch(() => undefined);
  }

  /** Reads the captures now and waits until every read asked for so far is done. */
  async settle(): Promise<void> {
    this.sync();
    await this.syncing;
  }

  /**
   * Settles what the last turn left, then attributes the evidence to `turnId` and reads it every
   * 100 ms until `endTurn`, noting the agent's descendants at the first tick and every second.
   */
  async beginTurn(turnId: string, process: () => AgentProcess | undefined): Promise<void> {
    // What the proxies captured since the last turn ended still belongs to that turn.
    await this.settle();
    this.turnId = turnId;
    clearInterval(this.timer);
    let tick = 0;
    this.timer = setInterval(() => {
      if (tick++ % DESCENDANT_SCAN_TICKS === 0) process()?.rememberDescendants();
      this.sync();
    }, SYNC_INTERVAL_MS);
  }

  /** Stops the turn's timer (now, before any wait) and settles what the turn's calls left. */
  endTurn(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    return this.settle();
  }
}
