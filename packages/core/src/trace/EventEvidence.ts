import type { JsonObject } from '../json';
import type { Redactor } from '../redaction/Redactor';
import type { EventKind } from './Event';
import { EVIDENCE_BUDGET_EXHAUSTED, EvidenceBudget, reducedPayload } from './EvidenceBudget';
import type { EvidenceRef, RawEvidenceBlob } from './EvidenceRef';
import type { RawEvidenceLimits } from './rawCapture';
import { RawEvidenceKeeper, type RawFields } from './RawEvidenceKeeper';
import type { RecordFields } from './RecorderInputs';

/** Added when raw evidence was cut or dropped because the execution's 64 MiB budget ran out. */
export const RAW_EVIDENCE_BUDGET_EXCEEDED = 'raw_evidence_budget_exceeded';

/** What one event keeps: its payload (with raw preview fields merged in) and its evidence. */
export interface BoundedEvent {
  readonly payload: JsonObject;
  readonly rawEvidence?: EvidenceRef;
  /** True when the budget ran out and the event is not to be stored. */
  readonly dropped: boolean;
}

/** Options of an `EventEvidence`. */
export interface EventEvidenceOptions {
  redactor: Redactor;
  limits: RawEvidenceLimits;
  /** Adds a limitation to the trace (`raw_evidence_budget_exceeded`, `evidence_budget_exhausted`). */
  addLimitation: (limitation: string) => void;
}

/**
 * What an execution's events cost and keep (contract §5, §22): every event's payload, raw evidence and
 * preview count against one budget (`limits.executionBytes`, 64 MiB by default). Within it an
 * event keeps its payload and bounded raw evidence; past it the event is reduced or dropped (see
 * `EvidenceBudget`) and the trace says so. Used by `TraceRecorder` for every event it builds.
 */
export class EventEvidence {
  private readonly budget: EvidenceBudget;
  private readonly raw: RawEvidenceKeeper;
  private readonly addLimitation: (limitation: string) => void;

  constructor(options: EventEvidenceOptions) {
    this.addLimitation = options.addLimitation;
    this.budget = new EvidenceBudget(options.limits.executionBytes);
    this.raw = new RawEvidenceKeeper({
      redactor: options.redactor,
      limits: options.limits,
      budget: this.budget,
      onBudgetExceeded: () => options.addLimitation(RAW_EVIDENCE_BUDGET_EXCEEDED),
    });
  }

  /** Raw evidence blobs kept so far (deduplicated by sha256). */
  get evidence(): readonly RawEvidenceBlob[] {
    return this.raw.evidence;
  }

  /**
   * Bounds one event: `payload` is its sanitized payload (owned by the recorder, or the caller's
   * `preRedacted` one, which is copied before it is written to). `exempt` events always go whole.
   */
  bound(kind: EventKind, fields: RecordFields, payload: JsonObject, exempt: boolean): BoundedEvent {
    // A message event's payload is its decoded frame: the frame's length prices it without a walk.
    const frameLength =
      fields.preRedacted === true ? (fields.raw as { length?: unknown } | undefined)?.length : undefined;
    const cost = typeof frameLength === 'number' ? frameLength : JSON.stringify(payload).length;
    const decision = this.budget.admit(kind, cost, exempt);
    if (decision !== 'full') {
      this.addLimitation(EVIDENCE_BUDGET_EXHAUSTED);
      if (fields.raw !== undefined) this.addLimitation(RAW_EVIDENCE_BUDGET_EXCEEDED);
      return { payload: reducedPayload(payload, cost), dropped: decision === 'dropped' };
    }
    if (fields.raw === undefined) {
      return { payload: fields.preRedacted === true ? Object.assign({}, payload) : payload, dropped: false };
    }
    // One copy that the raw fields are then written into (same keys and order as merging them).
    // Object.assign, not a spread: V8 makes a spread of an object with many fields very slow.
    const copy = Object.assign({}, payload);
    const rawEvidence = this.raw.attach(fields as RawFields, copy);
    return rawEvidence === undefined
      ? { payload: copy, dropped: false }
      : { payload: copy, rawEvidence, dropped: false };
  }

  /** The fields of the `evidence_budget_exhausted` diagnostic, once the budget ran out. */
  exhaustedDiagnostic(): RecordFields | undefined {
    if (!this.budget.exhausted) return undefined;
    return { phase: 'terminal', origin: 'normalized', direction: 'internal', payload: this.budget.summary() };
  }
}
