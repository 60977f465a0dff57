import type { ExecutionOutcome, TraceCompleteness } from '../enums';
import { ModelValidationError } from '../errors';
import { kitOf, linkToKit } from '../kit/kitLink';
import { deepFreeze, jsonClone } from './projection/deepFreeze';
import { validateViewData } from './projection/validateViewData';
import type {
  DiagnosticEntry,
  InitializationEntry,
  InteractionEntry,
  LifecycleEntry,
  MessageEntry,
  ProcessEntry,
  ProtocolEntry,
  RawMessageEntry,
  ReasoningEntry,
  ToolCallEntry,
  TraceEntry,
  TraceRuntime,
  TraceSummary,
  TraceViewData,
  TransportEntry,
  UsageEntry,
  EvaluationEntry,
} from './TraceEntry';

/** A turn given by id or by anything carrying a `turnId` (a `TurnResult`). */
export type TurnSelector = string | { readonly turnId: string };

type EntryOf<K extends TraceEntry['kind']> = Extract<TraceEntry, { kind: K }>;

/**
 * The projected, finalized view of one trace (SPEC §5). Immutable; `JSON.stringify(view)` gives
 * its `TraceViewData`, and `TraceView.fromData(JSON.parse(...))` an equal view. Filters return new
 * views whose timeline is narrowed while `runtime` and `summary` stay the whole trace's.
 */
export class TraceView {
  readonly schema: 'm3.trace_view';
  readonly schemaVersion: 1;
  readonly traceId: string;
  readonly executionId: string;
  readonly outcome: ExecutionOutcome;
  readonly completeness: TraceCompleteness;
  readonly limitations: readonly string[];
  readonly runtime: TraceRuntime;
  readonly summary: TraceSummary;
  readonly timeline: readonly TraceEntry[];
  #indexes = new Map<string, readonly TraceEntry[]>();

  /**
   * Wraps projected data without re-validating it (the projector's output is trusted); use
   * `TraceView.fromData` for JSON read back from storage. The data is frozen in place.
   */
  constructor(data: TraceViewData) {
    deepFreeze(data);
    this.schema = data.schema;
    this.schemaVersion = data.schemaVersion;
    this.traceId = data.traceId;
    this.executionId = data.executionId;
    this.outcome = data.outcome;
    this.completeness = data.completeness;
    this.limitations = data.limitations;
    this.runtime = data.runtime;
    this.summary = data.summary;
    this.timeline = data.timeline;
    Object.freeze(this);
  }

  /** Validates stored JSON (shape, entry kinds, observation state/reason rules) and wraps it. */
  static fromData(data: TraceViewData): TraceView {
    const copy = jsonClone(data);
    validateViewData(copy);
    return new TraceView(copy);
  }

  /** Tool-call entries, in timeline order. */
  get toolCalls(): readonly ToolCallEntry[] {
    return this.#index('tool_call');
  }
  /** Message entries. */
  get messages(): readonly MessageEntry[] {
    return this.#index('message');
  }
  /** Reasoning entries. */
  get reasoning(): readonly ReasoningEntry[] {
    return this.#index('reasoning');
  }
  /** Non-tool protocol request/response pairs and notifications. */
  get protocol(): readonly ProtocolEntry[] {
    return this.#index('protocol');
  }
  /** Transport connect/disconnect entries. */
  get transports(): readonly TransportEntry[] {
    return this.#index('transport');
  }
  /** Server-to-client interactions (sampling, elicitation, roots, permissions). */
  get interactions(): readonly InteractionEntry[] {
    return this.#index('interaction');
  }
  /** Child processes. */
  get processes(): readonly ProcessEntry[] {
    return this.#index('process');
  }
  /** Raw frames kept as evidence. */
  get rawMessages(): readonly RawMessageEntry[] {
    return this.#index('raw_message');
  }
  /** Diagnostics (deadlines, unmatched responses, undecodable events). */
  get diagnostics(): readonly DiagnosticEntry[] {
    return this.#index('diagnostic');
  }
  /** Observed initializations, one per connection. */
  get initializations(): readonly InitializationEntry[] {
    return this.#index('initialization');
  }
  /** Lifecycle entries of the execution, its sessions and turns. */
  get lifecycle(): readonly LifecycleEntry[] {
    return this.#index('lifecycle');
  }
  /** Usage reports. */
  get usage(): readonly UsageEntry[] {
    return this.#index('usage');
  }
  /** Evaluations recorded during the execution. */
  get evaluations(): readonly EvaluationEntry[] {
    return this.#index('evaluation');
  }

  /** The entries of one turn (by id or `TurnResult`). */
  forTurn(turn: TurnSelector): TraceView {
    const turnId =
      typeof turn === 'string' ? turn : typeof turn === 'object' && turn !== null ? turn.turnId : undefined;
    if (typeof turnId !== 'string' || turnId === '') {
      throw new ModelValidationError('forTurn needs a turn id or a TurnResult with a turnId');
    }
    return this.#filtered((entry) => entry.turnId === turnId);
  }

  /** The entries of one agent session. */
  forSession(sessionId: string): TraceView {
    if (typeof sessionId !== 'string' || sessionId === '') {
      throw new ModelValidationError('forSession needs a non-empty session id');
    }
    return this.#filtered((entry) => entry.sessionId === sessionId);
  }

  /** The entries that concern one server binding. */
  forServer(name: string): TraceView {
    if (typeof name !== 'string' || name === '') throw new ModelValidationError('forServer needs a server name');
    return this.#filtered((entry) => entry.server === name);
  }

  /** The entries overlapping `[startMs, endMs]`, offsets in ms from the trace's start. */
  between(startMs: number, endMs: number): TraceView {
    if (!Number.isFinite(startMs) || !Number.isFinite(endMs) || startMs < 0 || endMs < startMs) {
      throw new ModelValidationError(
        'between needs finite offsets with 0 <= startMs <= endMs (ms from the trace start)',
      );
    }
    return this.#filtered((entry) => entry.endMs >= startMs && entry.startMs <= endMs);
  }

  /** The view's JSON data. */
  toJSON(): TraceViewData {
    return {
      schema: this.schema,
      schemaVersion: this.schemaVersion,
      traceId: this.traceId,
      executionId: this.executionId,
      outcome: this.outcome,
      completeness: this.completeness,
      limitations: this.limitations as string[],
      runtime: this.runtime,
      summary: this.summary,
      timeline: this.timeline as TraceEntry[],
    };
  }

  #index<K extends TraceEntry['kind']>(kind: K): readonly EntryOf<K>[] {
    let entries = this.#indexes.get(kind);
    if (!entries) {
      entries = Object.freeze(this.timeline.filter((entry) => entry.kind === kind));
      this.#indexes.set(kind, entries);
    }
    return entries as readonly EntryOf<K>[];
  }

  #filtered(keep: (entry: TraceEntry) => boolean): TraceView {
    const view = new TraceView({ ...this.toJSON(), timeline: this.timeline.filter(keep) });
    const kit = kitOf(this);
    if (kit !== undefined && kit !== null) linkToKit(view, kit as object);
    return view;
  }
}
