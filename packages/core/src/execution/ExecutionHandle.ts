import { ModelValidationError, OperationTimeout } from '../errors';
import type { TraceEvent } from '../trace/Event';
import type { ExecutionResult } from './ExecutionResult';

/** Where a handle reads events: those recorded so far, then every later one, with no gap. */
export interface ExecutionEventFeed {
  follow(listener: (event: TraceEvent) => void): { past: readonly TraceEvent[]; stop: () => void };
}

/** What the kit gives a handle for one submitted execution. */
export interface ExecutionHandleSource {
  readonly executionId: string;
  readonly feed: ExecutionEventFeed;
  /** Settles when the execution has finished and been saved. */
  readonly done: Promise<ExecutionResult>;
  /** Stops the execution (outcome `cancelled`); resolves when it is terminal. */
  readonly cancel: () => Promise<void>;
}

/**
 * A running execution (contract §6). `events()` replays committed events then live ones and ends after
 * `execution.finished`; `result({ timeoutMs })` only limits waiting and never cancels;
 * `cancel()` stops the execution and waits until it is terminal.
 */
export class ExecutionHandle {
  readonly executionId: string;
  private readonly source: ExecutionHandleSource;
  private finishedValue = false;
  private cancelling: Promise<void> | undefined;

  constructor(source: ExecutionHandleSource) {
    this.executionId = source.executionId;
    this.source = source;
    source.done.then(
      () => {
        this.finishedValue = true;
      },
      () => {
        this.finishedValue = true;
      },
    );
  }

  /** True once the execution has finished (and its result is available). */
  get finished(): boolean {
    return this.finishedValue;
  }

  /** Committed events in sequence order, then live ones; ends after `execution.finished`. */
  events(options: { afterSequence?: number } = {}): AsyncIterable<TraceEvent> {
    const after = options.afterSequence ?? -1;
    if (!Number.isInteger(after) || after < -1) {
      throw new ModelValidationError('events afterSequence must be an integer >= -1');
    }
    const feed = this.source.feed;
    return {
      [Symbol.asyncIterator]: () => iterateEvents(feed, after),
    };
  }

  /**
   * The execution's result. `timeoutMs` limits only the wait: on expiry this throws
   * `OperationTimeout` with `details.waitOnly: true` and the execution keeps running.
   */
  result(options: { timeoutMs?: number } = {}): Promise<ExecutionResult> {
    const { timeoutMs } = options;
    if (timeoutMs === undefined) return this.source.done;
    if (typeof timeoutMs !== 'number' || !Number.isFinite(timeoutMs) || timeoutMs <= 0) {
      throw new ModelValidationError('result timeoutMs must be a finite number of milliseconds above 0');
    }
    return new Promise<ExecutionResult>((resolve, reject) => {
      const timer = setTimeout(() => {
        reject(
          new OperationTimeout(
            `execution result wait timed out after ${timeoutMs} ms; the execution is still running (call handle.cancel() to stop it)`,
            { executionId: this.executionId, timeoutMs, waitOnly: true },
          ),
        );
      }, timeoutMs);
      this.source.done.then(
        (result) => {
          clearTimeout(timer);
          resolve(result);
        },
        (error: unknown) => {
          clearTimeout(timer);
          reject(error);
        },
      );
    });
  }

  /** Cancels the execution (idempotent) and waits until it is terminal. */
  async cancel(): Promise<void> {
    this.cancelling ??= this.source.cancel();
    await this.cancelling;
    await this.source.done.catch(() => undefined);
  }
}

async function* iterateEvents(feed: ExecutionEventFeed, after: number): AsyncGenerator<TraceEvent> {
  const queue: TraceEvent[] = [];
  let wake: (() => void) | undefined;
  const { past, stop } = feed.follow((event) => {
    queue.push(event);
    wake?.();
  });
  let next = after + 1;
  let replayed = 0;
  try {
    for (;;) {
      const event = replayed < past.length ? past[replayed++] : queue.shift();
      if (event === undefined) {
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
        wake = undefined;
        continue;
      }
      // `execution.finished` ends the stream even when it is at or before `afterSequence`: nothing follows it.
      if (event.sequence >= next) {
        next = event.sequence + 1;
        yield event;
      }
      if (event.kind === 'execution.finished') return;
    }
  } finally {
    stop();
  }
}
