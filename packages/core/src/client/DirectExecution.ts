import type { ExecutionOutcome } from '../enums';
import type { ErrorInfo, ExecutionResult } from '../execution/ExecutionResult';
import { buildExecutionResult } from '../execution/buildExecutionResult';
import { storedSnapshot } from '../execution/storedSnapshot';
import { surfaceSnapshotField } from '../surface/coverage/surfaceSnapshotField';
import { newId } from '../ids';
import type { JsonObject, JsonValue } from '../json';
import { linkToKit } from '../kit/kitLink';
import type { ServerDescription } from '../servers/ServerDefinition';
import type { TraceEvent } from '../trace/Event';
import { TraceRecorder } from '../trace/TraceRecorder';
import type { TraceResult } from '../trace/TraceResult';
import type { DirectClientHost, ExecutionContext } from './DirectClientHost';
import { recordExecutionCreated } from './directLifecycleEvents';
import { directExecutionRecord } from './executionRecord';

/** How a direct execution ended, as its connection saw it at close. */
export interface DirectExecutionEnd {
  readonly outcome: ExecutionOutcome;
  readonly error: ErrorInfo | undefined;
  /** Limitations found while closing, e.g. `cleanup_failed`. */
  readonly limitations: string[];
  /** Every exception that escaped a client operation, redacted (stored in the snapshot). */
  readonly operationErrors?: readonly ErrorInfo[];
}

/**
 * The execution one direct connection records: its trace recorder (made at connect, with the
 * followers that asked before), `execution.created` and the store record, a spec's one-shot
 * result, and at close the finalized trace, the `ExecutionResult` and the `finishExecution` write.
 */
export class DirectExecution {
  /** The execution id (minted before connecting). */
  readonly executionId = newId('exec');
  private readonly host: DirectClientHost;
  private readonly context: ExecutionContext;
  private readonly watchers = new Map<(event: TraceEvent) => void, (() => void) | undefined>();
  private recorderValue: TraceRecorder | undefined;
  private createdAt = '';
  private creating: Promise<void> | undefined;
  private directResult: JsonValue | undefined;
  private directResultLive: unknown;
  private ended:
    | {
        finalTrace: TraceResult;
        result: ExecutionResult;
        finishedAt: string;
        outcome: ExecutionOutcome;
        operationErrors: readonly ErrorInfo[];
      }
    | undefined;

  constructor(host: DirectClientHost, context: ExecutionContext) {
    this.host = host;
    this.context = context;
  }

  /** The recorder, once `start` ran. */
  get recorder(): TraceRecorder | undefined {
    return this.recorderValue;
  }

  /** The finalized trace, once `finish` ran. */
  get finalTrace(): TraceResult | undefined {
    return this.ended?.finalTrace;
  }

  /** The execution result, once `finish` ran. */
  get result(): ExecutionResult | undefined {
    return this.ended?.result;
  }

  /**
   * Makes the recorder (attaching earlier followers), records `execution.created` and starts
   * writing the execution record; `created` resolves once the store has it.
   */
  start(binding: ServerDescription): { recorder: TraceRecorder; created: Promise<void> } {
    const traceId = newId('trace');
    const recorder = new TraceRecorder({ executionId: this.executionId, redactor: this.host.redactor, traceId });
    this.recorderValue = recorder;
    for (const watcher of this.watchers.keys()) this.watchers.set(watcher, recorder.subscribe(watcher));
    this.createdAt = new Date().toISOString();
    recordExecutionCreated(recorder, { traceId, context: this.context, binding });
    const created = (async () => {
      this.host.executionCreated(this.executionId);
      await this.host.store.createExecution(
        directExecutionRecord({
          executionId: this.executionId,
          context: this.context,
          binding,
          createdAt: this.createdAt,
        }),
      );
    })();
    this.creating = created;
    return { recorder, created };
  }

  /** A spec's one-shot result: `json` goes into `execution.finished`, `live` becomes `result.directResult`. */
  setDirectResult(json: JsonValue, live: unknown): void {
    this.directResult = json;
    this.directResultLive = live;
  }

  /** Events recorded so far, and `listener` for every later one; before `start` it is attached then. */
  follow(listener: (event: TraceEvent) => void): { past: readonly TraceEvent[]; stop: () => void } {
    const recorder = this.recorderValue;
    if (recorder !== undefined) {
      const past = [...recorder.events];
      const stop = recorder.finished ? () => undefined : recorder.subscribe(listener);
      return { past, stop };
    }
    this.watchers.set(listener, undefined);
    return {
      past: [],
      stop: () => {
        this.watchers.get(listener)?.();
        this.watchers.delete(listener);
      },
    };
  }

  /** The revision and era the connection negotiated (contract §23), stored on the execution's snapshot. */
  private protocol: { protocolVersion: string; era: 'legacy' | 'modern' } | undefined;

  /** Remembers the negotiated revision and era for the stored execution. */
  setProtocol(protocol: { protocolVersion: string; era: 'legacy' | 'modern' }): void {
    this.protocol = protocol;
  }

  /** Appends `execution.finished`, finalizes the trace and builds the `ExecutionResult` (both linked to the kit). */
  finish(end: DirectExecutionEnd): void {
    const recorder = this.recorderValue as TraceRecorder;
    const finalTrace = recorder.finish(end.outcome, end.error, {
      limitations: end.limitations,
      ...(this.directResult !== undefined && { directResult: this.directResult }),
    });
    linkToKit(finalTrace, this.host.linkTarget);
    const finishedAt = new Date().toISOString();
    const result = buildExecutionResult({
      trace: finalTrace,
      outcome: end.outcome,
      createdAt: this.createdAt,
      finishedAt,
      runId: this.context.runId,
      suiteName: this.context.suiteName,
      caseId: this.context.caseId,
      ...(this.directResultLive !== undefined && { directResult: this.directResultLive }),
      ...(end.error !== undefined && { error: end.error }),
      evaluations: () => this.host.evaluationsFor(this.executionId),
      kit: this.host.linkTarget,
    });
    this.ended = { finalTrace, result, finishedAt, outcome: end.outcome, operationErrors: end.operationErrors ?? [] };
  }

  /**
   * Once the execution record exists (a slow store may still be writing it), starts the
   * `finishExecution` write and hands it to the kit (`trackWrite`); undefined when the record
   * could not be created, so there is nothing to finish.
   */
  async startSave(): Promise<{ write: Promise<void> } | undefined> {
    const created = await this.creating?.then(
      () => true,
      () => false,
    );
    if (created === false || this.ended === undefined) return undefined;
    const ended = this.ended;
    const write = this.host.store.finishExecution({
      executionId: this.executionId,
      outcome: ended.outcome,
      finishedAt: ended.finishedAt,
      snapshot: {
        ...storedSnapshot(ended.result, ended.operationErrors),
        ...(this.protocol !== undefined && { protocol: { ...this.protocol } }),
        ...surfaceSnapshotField(ended.finalTrace),
      } as JsonObject,
      trace: ended.finalTrace,
      evidence: (this.recorderValue as TraceRecorder).evidence,
    });
    this.host.trackWrite(write);
    return { write };
  }
}
