import type { ChildProcess } from 'node:child_process';
import type { Readable } from 'node:stream';
import { TransportError } from '../errors';
import type { Redactor } from '../redaction/Redactor';
import type { TraceRecorder } from '../trace/TraceRecorder';
import type { ProcessExitedPayload } from '../trace/payloads';
import { descendantsOf, isAlive, signalProcess } from './processTree';
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
  server: string;
  connectionId: string;
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
    if (this.exitInfo === null) signalProcess(this.pid, 'SIGKILL');
  }

  private async doReap(): Promise<void> {
    const grace = this.options.graceMs ?? 2000;
    this.rememberDescendants();
    const others = [...this.descendants];
    if (this.exitInfo === null) {
      signalProcess(this.pid, 'SIGTERM');
      for (const pid of others) signalProcess(pid, 'SIGTERM');
      const ended = await Promise.race([this.exitObserved.then(() => true), delay(grace).then(() => false)]);
      if (!ended) {
        signalProcess(this.pid, 'SIGKILL');
        await Promise.race([this.exitObserved, delay(grace)]);
      }
    }
    await this.endStragglers(others, grace);
    liveHandles.delete(this);
    const survivors = [this.pid, ...others].filter((pid) => (pid === this.pid ? this.exitInfo === null : isAlive(pid)));
    if (survivors.length > 0) {
      throw new TransportError('the stdio server process could not be reaped: it survived SIGKILL', {
        pids: survivors,
      });
    }
    await this.exited;
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
    try {
      recorder.record('process.exited', {
        phase: 'cleanup',
        origin: 'normalized',
        direction: 'internal',
        server: this.options.server,
        connectionId: this.options.connectionId,
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
