import type { ExecutionOutcome, TraceCompleteness } from '../enums';
import { ModelValidationError } from '../errors';
import { kitOf, linkToKit } from '../ownership/kitLink';
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

/** Index caches per view, outside the frozen instance. */
const indexes = new WeakMap<TraceView, Map<string, readonly TraceEntry[]>>();

type EntryOf<K extends TraceEntry['kind']> = Extract<TraceEntry, { kind: K }>;

/**
 * The projected, finalized view of one trace (contract §5). Immutable; `JSON.stringify(view)` gives
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
    return indexOf(this, 'tool_call');
  }
  /** Message entries. */
  get messages(): readonly MessageEntry[] {
    return indexOf(this, 'message');
  }
  /** Reasoning entries. */
  get reasoning(): readonly ReasoningEntry[] {
    return indexOf(this, 'reasoning');
  }
  /** Non-tool protocol request/response pairs and notifications. */
  get protocol(): readonly ProtocolEntry[] {
    return indexOf(this, 'protocol');
  }
  /** Transport connect/disconnect entries. */
  get transports(): readonly TransportEntry[] {
    return indexOf(this, 'transport');
  }
  /** Server-to-client interactions (sampling, elicitation, roots, permissions). */
  get interactions(): readonly InteractionEntry[] {
    return indexOf(this, 'interaction');
  }
  /** Child processes. */
  get processes(): readonly ProcessEntry[] {
    return indexOf(this, 'process');
  }
  /** Raw frames kept as evidence. */
  get rawMessages(): readonly RawMessageEntry[] {
    return indexOf(this, 'raw_message');
  }
  /** Diagnostics (deadlines, unmatched responses, undecodable events). */
  get diagnostics(): readonly DiagnosticEntry[] {
    return indexOf(this, 'diagnostic');
  }
  /** Observed initializations, one per connection. */
  get initializations(): readonly InitializationEntry[] {
    return indexOf(this, 'initialization');
  }
  /** Lifecycle entries of the execution, its sessions and turns. */
  get lifecycle(): readonly LifecycleEntry[] {
    return indexOf(this, 'lifecycle');
  }
  /** Usage reports. */
  get usage(): readonly UsageEntry[] {
    return indexOf(this, 'usage');
  }
  /** Evaluations recorded during the execution. */
  get evaluations(): readonly EvaluationEntry[] {
    return indexOf(this, 'evaluation');
  }

  /** The entries of one turn (by id or `TurnResult`). */
  forTurn(turn: TurnSelector): TraceView {
    const turnId =
      typeof turn === 'string' ? turn : typeof turn === 'object' && turn !== null ? turn.turnId : undefined;
    if (typeof turnId !== 'string' || turnId === '') {
      throw new ModelValidationError('forTurn needs a turn id or a TurnResult with a turnId');
    }
    return filteredView(this, (entry) => entry.turnId === turnId);
  }

  /** The entries of one agent session. */
  forSession(sessionId: string): TraceView {
    if (typeof sessionId !== 'string' || sessionId === '') {
      throw new ModelValidationError('forSession needs a non-empty session id');
    }
    return filteredView(this, (entry) => entry.sessionId === sessionId);
  }

  /** The entries that concern one server binding. */
  forServer(name: string): TraceView {
    if (typeof name !== 'string' || name === '') throw new ModelValidationError('forServer needs a server name');
    return filteredView(this, (entry) => entry.server === name);
  }

  /** The entries overlapping `[startMs, endMs]`, offsets in ms from the trace's start. */
  between(startMs: number, endMs: number): TraceView {
    if (!Number.isFinite(startMs) || !Number.isFinite(endMs) || startMs < 0 || endMs < startMs) {
      throw new ModelValidationError(
        'between needs finite offsets with 0 <= startMs <= endMs (ms from the trace start)',
      );
    }
    return filteredView(this, (entry) => entry.endMs >= startMs && entry.startMs <= endMs);
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
}

/** The entries of `kind`, computed once per view. */
function indexOf<K extends TraceEntry['kind']>(view: TraceView, kind: K): readonly EntryOf<K>[] {
  let byKind = indexes.get(view);
  if (!byKind) {
    byKind = new Map();
    indexes.set(view, byKind);
  }
  let entries = byKind.get(kind);
  if (!entries) {
    entries = Object.freeze(view.timeline.filter((entry) => entry.kind === kind));
    byKind.set(kind, entries);
  }
  return entries as readonly EntryOf<K>[];
}

/** A new view with the timeline narrowed to `keep`, linked to the same kit. */
function filteredView(view: TraceView, keep: (entry: TraceEntry) => boolean): TraceView {
  const narrowed = new TraceView({ ...view.toJSON(), timeline: view.timeline.filter(keep) });
  const kit = kitOf(view);
  if (kit !== undefined && kit !== null) linkToKit(narrowed, kit as object);
  return narrowed;
}
