import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { basename } from 'node:path';
import type { TraceRecorder } from '../../trace/TraceRecorder';
import type { ProcessExitedPayload } from '../../trace/payloads';
import { descendantsOf, isAlive, signalProcess } from '../../transport/processTree';
import { StderrTail } from '../../transport/StderrTail';
import type { AcpLaunchPlan } from './acpEnvironment';

/** How the agent process ended. */
export interface AgentExit {
  readonly code: number | null;
  readonly signal: string | null;
  /** Set when it could not be started at all. */
  readonly spawnError?: string;
}

/** Grace between SIGTERM and SIGKILL of the agent's process group. */
export const AGENT_KILL_GRACE_MS = 1000;
const POLL_MS = 25;
const delay = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms).unref());

/** Agent groups still alive; SIGKILLed if this process exits without reaping them. */
const live = new Set<AcpAgentProcess>();
let hooked = false;
function hookExit(): void {
  if (hooked) return;
  hooked = true;
  process.once('exit', () => {
    for (const p of live) p.killNow();
  });
}

/** Sends `signal` to the process group led by `pid` (never throws). */
function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    signalProcess(pid, signal);
  }
}

/**
 * The agent as a child process in its own process group (`detached`), with stdio pipes, a bounded
 * stderr tail, and `process.started` / `process.exited` in the trace (stderr redacted, as evidence).
 * `terminate()` signals the whole group — SIGTERM, SIGKILL after the grace — and also the
 * descendants that left it, then waits until none is alive.
 */
export class AcpAgentProcess {
  readonly child: ChildProcessWithoutNullStreams;
  readonly pid: number | null;
  readonly executable: string;
  /** Resolves when the process has exited (after `process.exited` is recorded). */
  readonly exited: Promise<AgentExit>;
  private exitInfo: AgentExit | undefined;
  private readonly tail = new StderrTail();
  private readonly known = new Set<number>();
  private terminating: Promise<boolean> | undefined;

  constructor(
    plan: AcpLaunchPlan,
    private readonly recorder: TraceRecorder,
    scope: () => { sessionId?: string },
  ) {
    this.executable = basename(plan.executable);
    this.child = spawn(plan.executable, plan.args, {
      cwd: plan.workspace,
      env: plan.env,
      detached: true,
      stdio: ['pipe', 'pipe', 'pipe'],
      windowsHide: true,
    });
    this.pid = this.child.pid ?? null;
    this.child.stdin.on('error', () => undefined);
    this.child.stderr.on('data', (chunk: Buffer) => this.tail.append(chunk));
    const exit = new Promise<AgentExit>((resolve) => {
      this.child.once('error', (error) => resolve({ code: null, signal: null, spawnError: error.message }));
      this.child.once('exit', (code, signal) => resolve({ code, signal }));
    });
    this.exited = exit.then(async (info) => {
      this.exitInfo = info;
      live.delete(this);
      if (!this.child.stderr.readableEnded) {
        await Promise.race([new Promise((r) => this.child.stderr.once('close', r)), delay(200)]);
      }
      this.recordExit(info, scope);
      return info;
    });
    if (this.pid !== null) {
      live.add(this);
      hookExit();
      recorder.record('process.started', {
        ...scope(),
        phase: 'startup',
        origin: 'normalized',
        direction: 'internal',
        payload: { executable: this.executable, pid: this.pid },
      });
    }
  }

  /** The exit, once the process has ended. */
  get exit(): AgentExit | undefined {
    return this.exitInfo;
  }

  /** Notes the agent's current descendants (MCP proxies, servers) so they are reaped with it. */
  rememberDescendants(): void {
    if (this.pid === null || this.exitInfo !== undefined) return;
    for (const pid of descendantsOf(this.pid)) this.known.add(pid);
  }

  /** SIGTERM to the group, SIGKILL after `graceMs`; resolves true when nothing of it is left. */
  terminate(graceMs = AGENT_KILL_GRACE_MS): Promise<boolean> {
    this.terminating ??= this.doTerminate(graceMs);
    return this.terminating;
  }

  /** Synchronous last resort: SIGKILL the group and known descendants. */
  killNow(): void {
    if (this.pid === null) return;
    signalGroup(this.pid, 'SIGKILL');
    for (const pid of this.known) signalProcess(pid, 'SIGKILL');
  }

  private async doTerminate(graceMs: number): Promise<boolean> {
    if (this.pid === null) return true;
    const pid = this.pid;
    this.rememberDescendants();
    const others = [...this.known];
    const alive = (): number[] =>
      [pid, ...others].filter((p) => (p === pid ? this.exitInfo === undefined : isAlive(p)));
    const waitGone = async (ms: number): Promise<boolean> => {
      const until = Date.now() + ms;
      while (alive().length > 0 && Date.now() < until) await delay(POLL_MS);
      return alive().length === 0;
    };
    signalGroup(pid, 'SIGTERM');
    for (const p of others) signalProcess(p, 'SIGTERM');
    if (!(await waitGone(graceMs))) {
      signalGroup(pid, 'SIGKILL');
      for (const p of alive()) signalProcess(p, 'SIGKILL');
      await waitGone(graceMs);
    }
    // The group may hold processes started after the last look: a final SIGKILL to it is harmless.
    signalGroup(pid, 'SIGKILL');
    await Promise.race([this.exited, delay(graceMs)]);
    live.delete(this);
    return alive().length === 0;
  }

  private recordExit(exit: AgentExit, scope: () => { sessionId?: string }): void {
    if (this.recorder.finished) return;
    const payload: ProcessExitedPayload = {
      executable: this.executable,
      pid: this.pid,
      exitCode: exit.code,
      signal: exit.signal,
      stderr: null,
    };
    const text = this.tail.totalBytes > 0 ? this.tail.text() : undefined;
    try {
      this.recorder.record('process.exited', {
        ...scope(),
        phase: 'cleanup',
        origin: 'normalized',
        direction: 'internal',
        payload,
        ...(text !== undefined && {
          raw: text,
          rawMediaType: 'text/plain; charset=utf-8',
          rawSource: 'process_stderr' as const,
          rawOriginalSizeBytes: this.tail.totalBytes,
        }),
      });
    } catch {
      // The trace was finished concurrently.
    }
  }
}
