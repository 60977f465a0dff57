import type { ChildProcess } from 'node:child_process';
import type { Readable } from 'node:stream';
import { TransportError } from '../errors';
import type { Redactor } from '../redaction/Redactor';
import type { TraceRecorder } from '../trace/TraceRecorder';
import type { ProcessExitedPayload } from '../trace/payloads';
import { descendantsOf, isAlive, processGroupMembers, signalProcess } from './processTree';
import { StderrTail } from './StderrTail';

/** How a child ended. */
export interface ProcessExit {
  code: number | null;
  signal: string | null;
}

/** What a handle needs to watch one child. */
export interface ChildProcessHandleOptions {
  pid: number;
  /** The spawned child, when available (gives exit code and signal); else the pid is polled. */
  child?: ChildProcess;
  stderr?: Readable | null;
  /** Basename of the command: the only part of the command line a trace may hold. */
  executable: string;
  redactor: Redactor;
  recorder: TraceRecorder;
  /** Server binding the process serves (stdio servers; absent for an agent). */
  server?: string;
  connectionId?: string;
  /** Session (and turn) `process.exited` is tagged with (agent processes). */
  scope?: () => { sessionId?: string; turnId?: string };
  /**
   * The child leads its own process group (spawned `detached`): signals go to the whole group, and
   * a last SIGKILL to the group ends members started after the last look at the descendants.
   */
  processGroup?: boolean;
  /** Grace between SIGTERM and SIGKILL (default 2000 ms). */
  graceMs?: number;
}

const POLL_MS = 50;
/** How long to wait for stderr to drain after the child exited. */
const DRAIN_MS = 200;

const delay = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms).unref());

/** Children still alive; killed synchronously if this process exits without reaping them. */
const liveHandles = new Set<ChildProcessHandle>();
let exitHookInstalled = false;
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const handle of liveHandles) handle.killNow();
  });
}

/**
 * Watches one stdio child: keeps a bounded tail of its stderr, records `process.exited` (with the
 * redacted stderr as evidence) when it ends, and reaps it and every descendant it started:
 * SIGTERM, then SIGKILL after the grace period, then a check that nothing survived.
 */
export class ChildProcessHandle {
  readonly pid: number;
  /** Resolves once the child has exited and `process.exited` is recorded. */
  readonly exited: Promise<ProcessExit>;
  private readonly options: ChildProcessHandleOptions;
  private readonly tail = new StderrTail();
  private readonly descendants = new Set<number>();
  private exitInfo: ProcessExit | null = null;
  private readonly exitObserved: Promise<ProcessExit>;
  private reaping: Promise<void> | undefined;

  constructor(options: ChildProcessHandleOptions) {
    this.options = options;
    this.pid = options.pid;
    options.stderr?.on('data', (chunk: Buffer | string) => this.tail.append(chunk));
    options.stderr?.on('error', () => undefined);
    this.exitObserved = this.watchExit();
    this.exited = this.exitObserved.then((exit) => this.recordExit(exit));
    liveHandles.add(this);
    installExitHook();
  }

  /** True once the child has exited. */
  get hasExited(): boolean {
    return this.exitInfo !== null;
  }

  /** How the child ended; null while it runs. */
  get exit(): ProcessExit | null {
    return this.exitInfo;
  }

  /** The kept stderr tail (64 KiB), redacted. */
  stderr(): string {
    return this.options.redactor.redactText(this.tail.text());
  }

  /** Notes the child's current descendants so they can be reaped even after they are orphaned. */
  rememberDescendants(): void {
    if (this.exitInfo !== null) return;
    for (const pid of descendantsOf(this.pid)) this.descendants.add(pid);
  }

  /**
   * Ends the child and its descendants: SIGTERM, SIGKILL after the grace period, then verifies
   * that none is left. Idempotent.
   * @throws TransportError when a process survives SIGKILL
   */
  reap(): Promise<void> {
    this.reaping ??= this.doReap();
    return this.reaping;
  }

  /** Synchronous last resort at process exit: SIGKILL the child and its known descendants. */
  killNow(): void {
    for (const pid of this.descendants) signalProcess(pid, 'SIGKILL');
    this.signalChild('SIGKILL');
  }

  /** Signals the child (its whole group with `processGroup`), never a pid it no longer holds. */
  private signalChild(signal: NodeJS.Signals): void {
    if (this.options.processGroup === true) {
      try {
        process.kill(-this.pid, signal);
        return;
      } catch {
        // No such group: fall back to the child itself while it runs.
      }
    }
    if (this.exitInfo === null) signalProcess(this.pid, signal);
  }

  private async doReap(): Promise<void> {
    const grace = this.options.graceMs ?? 2000;
    this.rememberDescendants();
    const others = [...this.descendants];
    if (this.exitInfo === null) {
      this.signalChild('SIGTERM');
      for (const pid of others) signalProcess(pid, 'SIGTERM');
      const ended = await Promise.race([this.exitObserved.then(() => true), delay(grace).then(() => false)]);
      if (!ended) {
        this.signalChild('SIGKILL');
        await Promise.race([this.exitObserved, delay(grace)]);
      }
    }
    await this.endStragglers(others, grace);
    const groupLeft = this.options.processGroup === true ? await this.endGroup(grace) : [];
    liveHandles.delete(this);
    const survivors = [this.pid, ...others].filter((pid) => (pid === this.pid ? this.exitInfo === null : isAlive(pid)));
    survivors.push(...groupLeft.filter((pid) => !survivors.includes(pid)));
    if (survivors.length > 0) {
      throw new TransportError(
        `the ${this.options.processGroup === true ? 'process group' : 'child process'} could not be reaped: it survived SIGKILL`,
        {
          pids: survivors,
        },
      );
    }
    await this.exited;
  }

  /**
   * SIGKILL to the child's process group (members started or orphaned after the last look at the
   * descendants), then waits until the group is empty; returns the members still alive after `grace`.
   */
  private async endGroup(grace: number): Promise<number[]> {
    let members = processGroupMembers(this.pid);
    if (members.length === 0) return [];
    this.signalChild('SIGKILL');
    const deadline = Date.now() + grace;
    while (members.length > 0 && Date.now() < deadline) {
      await delay(POLL_MS);
      members = processGroupMembers(this.pid);
    }
    return members;
  }

  /** SIGTERM then SIGKILL for descendants that outlived the child. */
  private async endStragglers(pids: number[], grace: number): Promise<void> {
    let alive = pids.filter(isAlive);
    if (alive.length === 0) return;
    for (const pid of alive) signalProcess(pid, 'SIGTERM');
    const deadline = Date.now() + grace;
    while (alive.length > 0 && Date.now() < deadline) {
      await delay(POLL_MS);
      alive = alive.filter(isAlive);
    }
    for (const pid of alive) signalProcess(pid, 'SIGKILL');
    const killDeadline = Date.now() + grace;
    while (alive.length > 0 && Date.now() < killDeadline) {
      await delay(POLL_MS);
      alive = alive.filter(isAlive);
    }
  }

  private watchExit(): Promise<ProcessExit> {
    const child = this.options.child;
    return new Promise<ProcessExit>((resolve) => {
      const done = (exit: ProcessExit): void => {
        if (this.exitInfo !== null) return;
        this.exitInfo = exit;
        liveHandles.delete(this);
        resolve(exit);
      };
      if (child !== undefined) {
        if (child.exitCode !== null || child.signalCode !== null) {
          done({ code: child.exitCode, signal: child.signalCode });
          return;
        }
        child.once('exit', (code, signal) => done({ code, signal }));
        return;
      }
      const timer = setInterval(() => {
        if (!isAlive(this.pid)) {
          clearInterval(timer);
          done({ code: null, signal: null });
        }
      }, POLL_MS);
      timer.unref();
    });
  }

  /** Waits briefly for stderr to drain, then records `process.exited` with the stderr evidence. */
  private async recordExit(exit: ProcessExit): Promise<ProcessExit> {
    const child = this.options.child;
    if (child !== undefined && child.stderr !== null && !child.stderr.readableEnded) {
      await Promise.race([new Promise((resolve) => child.once('close', resolve)), delay(DRAIN_MS)]);
    }
    const { recorder } = this.options;
    if (recorder.finished) return exit;
    const payload: ProcessExitedPayload = {
      executable: this.options.executable,
      pid: this.pid,
      exitCode: exit.code,
      signal: exit.signal,
      stderr: null,
    };
    const text = this.tail.totalBytes > 0 ? this.tail.text() : undefined;
    const { server, connectionId, scope } = this.options;
    try {
      recorder.record('process.exited', {
        ...scope?.(),
        phase: 'cleanup',
        origin: 'normalized',
        direction: 'internal',
        ...(server !== undefined && { server }),
        ...(connectionId !== undefined && { connectionId }),
        payload,
        ...(text !== undefined && {
          raw: text,
          rawMediaType: 'text/plain; charset=utf-8',
          rawSource: 'process_stderr' as const,
          rawOriginalSizeBytes: this.tail.totalBytes,
        }),
      });
    } catch {
      // The trace was finished concurrently; the exit is still reported through `exited`.
    }
    return exit;
  }
}
