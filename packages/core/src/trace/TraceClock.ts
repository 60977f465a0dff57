import { performance } from 'node:perf_hooks';

/**
 * The time of one trace: monotonic offsets in milliseconds since the trace began (never going
 * back, so events stay in order) and the ISO wall-clock time of an offset.
 */
export class TraceClock {
  private readonly clock: () => number;
  private readonly startMono: number;
  private readonly startWall: number;
  private lastOffset = 0;
  private lastIsoMs = Number.NaN;
  private lastIso = '';

  /** `clock` gives monotonic milliseconds (default `performance.now`). */
  constructor(clock: () => number = () => performance.now()) {
    this.clock = clock;
    this.startMono = clock();
    this.startWall = Date.now();
  }

  /** Milliseconds since the trace began, never before the last offset used. */
  now(): number {
    return Math.max(this.lastOffset, Math.round((this.clock() - this.startMono) * 1000) / 1000);
  }

  /** Marks `offsetMs` as used: later `now()` calls return no earlier offset. */
  use(offsetMs: number): void {
    if (offsetMs > this.lastOffset) this.lastOffset = offsetMs;
  }

  /** ISO time at `offsetMs`, reusing the last string within the same millisecond (a hot path). */
  isoAt(offsetMs: number): string {
    const wall = Math.floor(this.startWall + offsetMs);
    if (wall !== this.lastIsoMs) {
      this.lastIsoMs = wall;
      this.lastIso = new Date(wall).toISOString();
    }
    return this.lastIso;
  }
}
