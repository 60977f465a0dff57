import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { basename } from 'node:path';
import type { Redactor } from '../../redaction/Redactor';
import type { TraceRecorder } from '../../trace/TraceRecorder';
import { ChildProcessHandle } from '../../transport/ChildProcessHandle';
import type { AgentLaunchPlan } from './launchPlan';

/** How the agent process ended. */
export interface AgentExit {
  readonly code: number | null;
  readonly signal: string | null;
  /** Set when it could not be started at all. */
  readonly spawnError?: string;
}

/** Grace between SIGTERM and SIGKILL of the agent's process group. */
export const AGENT_KILL_GRACE_MS = 1000;

/**
 * The agent as a child process in its own process group (`detached`), with stdio pipes and
 * `process.started` in the trace. Watching and reaping is the transport's `ChildProcessHandle` in
 * process-group mode: a bounded stderr tail, `process.exited` (stderr redacted, as evidence), and
 * `terminate()` — SIGTERM to the group and the descendants that left it, SIGKILL after the grace,
 * a last SIGKILL to the group, then a check that none is alive.
 */
export class AgentProcess {
  readonly child: ChildProcessWithoutNullStreams;
  readonly pid: number | null;
  readonly executable: string;
  /** Resolves when the process has exited (after `process.exited` is recorded). */
  readonly exited: Promise<AgentExit>;
  private readonly handle: ChildProcessHandle | undefined;
  private spawnFailure: AgentExit | undefined;

  constructor(plan: AgentLaunchPlan, recorder: TraceRecorder, redactor: Redactor, scope: () => { sessionId?: string }) {
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
    const spawnError = new Promise<AgentExit>((resolve) =>
      this.child.once('error', (error) => {
        this.spawnFailure ??= { code: null, signal: null, spawnError: error.message };
        resolve(this.spawnFailure);
      }),
    );
    if (this.pid === null) {
      this.exited = spawnError;
      return;
    }
    recorder.record('process.started', {
      ...scope(),
      phase: 'startup',
      origin: 'normalized',
      direction: 'internal',
      payload: { executable: this.executable, pid: this.pid },
    });
    const handle = new ChildProcessHandle({
      pid: this.pid,
      child: this.child,
      stderr: this.child.stderr,
      executable: this.executable,
      redactor,
      recorder,
      scope,
      processGroup: true,
      graceMs: AGENT_KILL_GRACE_MS,
    });
    this.handle = handle;
    this.exited = handle.exited;
  }

  /** The exit, once the process has ended (or failed to start). */
  get exit(): AgentExit | undefined {
    return this.handle?.exit ?? this.spawnFailure;
  }

  /** Notes the agent's current descendants (MCP proxies, servers) so they are reaped with it. */
  rememberDescendants(): void {
    this.handle?.rememberDescendants();
  }

  /** Ends the agent's process group and its descendants; resolves true when nothing of it is left. */
  terminate(): Promise<boolean> {
    return this.handle === undefined
      ? Promise.resolve(true)
      : this.handle.reap().then(
          () => true,
          () => false,
        );
  }
}
