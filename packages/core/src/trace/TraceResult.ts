import { ModelValidationError, TraceNotFinalized, TraceUnavailable } from '../errors';
import { kitOf, linkToKit } from '../ownership/kitLink';
import { EventKind, type TraceEvent } from './Event';
import { deepFreeze, jsonClone } from './projection/deepFreeze';
import { projectTraceView } from './projection/projectTraceView';
import { TraceView } from './TraceView';
import { ExecutionOutcome, type TraceCompleteness } from '../enums';

/** The JSON form of a trace: what the store saves and `TraceResult.fromJSON` reads. */
export interface TraceResultData {
  /** Version of this JSON shape; `toJSON` always writes it, readers accept it absent (= 1). */
  schemaVersion?: 1;
  traceId: string;
  executionId: string;
  completeness: TraceCompleteness;
  limitations: string[];
  events: TraceEvent[];
}

const EVENT_KINDS: ReadonlySet<string> = new Set(Object.values(EventKind));
/** Views already projected, per trace (kept outside the frozen instance, and structural typing intact). */
const views = new WeakMap<TraceResult, TraceView>();

/**
 * Every event of one execution, numbered 0..n-1. Immutable: the instance and its events are
 * frozen. `view()` projects the finalized trace into a `TraceView` (once, then cached).
 */
export class TraceResult {
  readonly traceId: string;
  readonly executionId: string;
  readonly completeness: TraceCompleteness;
  readonly limitations: readonly string[];
  readonly events: readonly TraceEvent[];

  /** Validates and freezes `data`: throws `ModelValidationError` naming the first problem. */
  constructor(data: TraceResultData) {
    validateTraceData(data);
    this.traceId = data.traceId;
    this.executionId = data.executionId;
    this.completeness = data.completeness;
    this.limitations = deepFreeze([...data.limitations]);
    this.events = deepFreeze(data.events.map((event) => (Object.isFrozen(event) ? event : jsonClone(event))));
    Object.freeze(this);
  }

  /** True when the last event is `execution.finished`. */
  get finalized(): boolean {
    return this.events.at(-1)?.kind === EventKind.EXECUTION_FINISHED;
  }

  /** Sequence number of the last event, -1 for an empty trace. */
  get highestSequence(): number {
    return this.events.length - 1;
  }

  /**
   * The projected view of this finalized trace.
   * @throws TraceNotFinalized when the execution has not finished yet
   * @throws TraceUnavailable when the terminal event contradicts the trace
   */
  view(): TraceView {
    let view = views.get(this);
    if (view === undefined) {
      if (!this.finalized) throw new TraceNotFinalized(undefined, { executionId: this.executionId });
      checkProjectable(this);
      view = new TraceView(projectTraceView(this.toJSON()));
      views.set(this, view);
    }
    // The kit may link the trace after its view was first projected: pass the link on every time.
    const kit = kitOf(this);
    if (kit !== undefined && kit !== null && kitOf(view) === undefined) linkToKit(view, kit as object);
    return view;
  }

  /** Plain JSON data; `TraceResult.fromJSON(trace.toJSON())` gives an equal trace. */
  toJSON(): TraceResultData {
    return {
      schemaVersion: 1,
      traceId: this.traceId,
      executionId: this.executionId,
      completeness: this.completeness,
      limitations: [...this.limitations],
      events: [...this.events],
    };
  }

  /** Rebuilds a trace from its JSON data, validating it. */
  static fromJSON(data: TraceResultData): TraceResult {
    if (typeof data !== 'object' || data === null) {
      throw new ModelValidationError('trace data must be an object from TraceResult.toJSON()');
    }
    return new TraceResult(data);
  }
}

function fail(message: string, details: Record<string, string | number> = {}): never {
  throw new ModelValidationError(message, details);
}

/** The structural rules of contract §5: ids, completeness, and events numbered 0..n-1. */
function validateTraceData(data: TraceResultData): void {
  if (typeof data !== 'object' || data === null) fail('trace data must be an object');
  if (data.schemaVersion !== undefined && data.schemaVersion !== 1) {
    fail(`unsupported trace schemaVersion ${String(data.schemaVersion)}: this sf-m3 reads version 1`);
  }
  if (typeof data.traceId !== 'string' || data.traceId === '') fail('a trace needs a non-empty traceId');
  if (typeof data.executionId !== 'string' || data.executionId === '') {
    fail('a trace needs a non-empty executionId');
  }
  if (data.completeness !== 'complete' && data.completeness !== 'partial') {
    fail("trace completeness must be 'complete' or 'partial'");
  }
  if (!Array.isArray(data.limitations) || data.limitations.some((l) => typeof l !== 'string' || l === '')) {
    fail('trace limitations must be a list of non-empty strings');
  }
  if (data.completeness === 'complete' && data.limitations.length > 0) {
    fail('a complete trace has no limitations: mark it partial or drop the limitations');
  }
  if (data.completeness === 'partial' && data.limitations.length === 0) {
    fail('a partial trace must name at least one limitation, e.g. capture_incomplete');
  }
  if (!Array.isArray(data.events)) fail('trace events must be a list');
  const ids = new Set<string>();
  data.events.forEach((event, index) => validateEvent(event, index, data, ids));
}

function validateEvent(event: TraceEvent, index: number, data: TraceResultData, ids: Set<string>): void {
  if (typeof event !== 'object' || event === null) fail(`trace event ${index} must be an object`);
  if (event.sequence !== index) {
    const problem = typeof event.sequence === 'number' && event.sequence < index ? 'duplicate' : 'gap';
    fail(
      `trace events must be numbered 0..n-1 without gaps or duplicates: expected ${index}, found ${String(event.sequence)} (${problem})`,
      {
        index,
      },
    );
  }
  if (event.executionId !== data.executionId) {
    fail(`trace event ${index} belongs to another execution: every event must carry the trace's executionId`, {
      index,
    });
  }
  if (typeof event.eventId !== 'string' || event.eventId === '') fail(`trace event ${index} needs an eventId`);
  if (ids.has(event.eventId)) fail(`trace event ${index} repeats eventId ${event.eventId}`, { index });
  ids.add(event.eventId);
  if (!EVENT_KINDS.has(event.kind)) fail(`trace event ${index} has an unknown kind: ${String(event.kind)}`, { index });
  if (typeof event.offsetMs !== 'number' || !Number.isFinite(event.offsetMs) || event.offsetMs < 0) {
    fail(`trace event ${index} needs a finite, non-negative offsetMs`, { index });
  }
  if (typeof event.timestamp !== 'string' || Number.isNaN(Date.parse(event.timestamp))) {
    fail(`trace event ${index} needs an ISO-8601 timestamp`, { index });
  }
  if (typeof event.payload !== 'object' || event.payload === null || Array.isArray(event.payload)) {
    fail(`trace event ${index} needs an object payload`, { index });
  }
  if (index === 0 && event.kind !== EventKind.EXECUTION_CREATED) {
    fail('the first trace event must be execution.created', { index });
  }
  if (index > 0 && event.kind === EventKind.EXECUTION_CREATED) {
    fail(`trace event ${index} repeats execution.created: only the first event may create the execution`, { index });
  }
  if (event.kind === EventKind.EXECUTION_FINISHED && index !== data.events.length - 1) {
    fail(`trace event ${index} is execution.finished but is not the last event`, { index });
  }
}

const OUTCOMES: ReadonlySet<string> = new Set(Object.values(ExecutionOutcome));

/** The projection preconditions of upstream §3.4, checked once the trace is finalized. */
function checkProjectable(trace: TraceResult): void {
  const created = trace.events[0]!.payload;
  if (typeof created.traceId === 'string' && created.traceId !== trace.traceId) {
    throw new TraceUnavailable('execution.created names another traceId than the trace: the trace is corrupt', {
      executionId: trace.executionId,
    });
  }
  const finished = trace.events.at(-1)!.payload;
  if (typeof finished.outcome !== 'string' || !OUTCOMES.has(finished.outcome)) {
    throw new TraceUnavailable('execution.finished has no valid outcome: the trace is corrupt', {
      executionId: trace.executionId,
    });
  }
  if (finished.completeness !== undefined && finished.completeness !== trace.completeness) {
    throw new TraceUnavailable('execution.finished disagrees with the trace about completeness', {
      executionId: trace.executionId,
    });
  }
  if (
    Array.isArray(finished.limitations) &&
    JSON.stringify([...finished.limitations].sort()) !== JSON.stringify([...trace.limitations].sort())
  ) {
    throw new TraceUnavailable('execution.finished disagrees with the trace about its limitations', {
      executionId: trace.executionId,
    });
  }
}
