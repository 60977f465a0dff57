import type { JsonObject, JsonValue } from '../json';
import type { EventKind } from './Event';

/** Added when events were dropped or reduced because the execution's evidence budget ran out. */
export const EVIDENCE_BUDGET_EXHAUSTED = 'evidence_budget_exhausted';

/** What happens to one event: kept whole, kept with a reduced payload and no raw evidence, or dropped. */
export type BudgetDecision = 'full' | 'reduced' | 'dropped';

/**
 * Kinds a peer can send without being asked, as often as it likes: past the budget they are only
 * counted. Every other kind is kept (so sequences, request/response pairs and the lifecycle stay
 * whole) with its payload reduced to its scalar fields.
 */
const DROPPABLE: ReadonlySet<EventKind> = new Set<EventKind>([
  'diagnostic',
  'raw.frame',
  'provider.event',
  'mcp.notification',
  'mcp.progress',
  'agent.message',
  'assistant.content',
  'reasoning',
]);

/** The kit's own bookkeeping: kept whole, outside the budget (few, and a trace is unreadable without them). */
const EXEMPT: ReadonlySet<EventKind> = new Set<EventKind>([
  'execution.created',
  'execution.state_changed',
  'execution.finished',
]);

/** Characters of a string a reduced payload keeps. */
const REDUCED_STRING_CHARS = 200;
/** Object depth a reduced payload keeps (`params.name` of a request survives, its arguments do not). */
const REDUCED_DEPTH = 2;

function reduceValue(value: JsonValue, depth: number): JsonValue | undefined {
  if (typeof value === 'string')
    return value.length > REDUCED_STRING_CHARS ? value.slice(0, REDUCED_STRING_CHARS) : value;
  if (value === null || typeof value !== 'object') return value;
  // Arrays go whole: an empty list would pose as an observed empty one.
  if (Array.isArray(value) || depth >= REDUCED_DEPTH) return undefined;
  const out: JsonObject = {};
  for (const [key, inner] of Object.entries(value)) {
    const reduced = reduceValue(inner, depth + 1);
    if (reduced !== undefined) out[key] = reduced;
  }
  return out;
}

/**
 * The payload an event keeps past the budget: scalar fields two levels deep (strings cut to 200
 * characters), no arrays, and `payloadDropped: true` with the size it would have cost.
 */
export function reducedPayload(payload: JsonObject, costBytes: number): JsonObject {
  const reduced = (reduceValue(payload, 0) ?? {}) as JsonObject;
  reduced.payloadDropped = true;
  reduced.payloadBytes = costBytes;
  return reduced;
}

/**
 * The evidence budget of one execution (contract §5, §22): raw evidence, event payloads and their
 * previews all count against the same bytes (64 MiB by default). Once an event does not fit, the
 * budget is exhausted: droppable kinds are counted and dropped, the others kept reduced, and the
 * trace gets `evidence_budget_exhausted` and one diagnostic with the counts.
 */
export class EvidenceBudget {
  private spentBytes = 0;
  private droppedCount = 0;
  private reducedCount = 0;
  private readonly droppedKinds: Record<string, number> = {};

  constructor(readonly limitBytes: number) {}

  /** Bytes still available. */
  get remaining(): number {
    return Math.max(0, this.limitBytes - this.spentBytes);
  }

  /** Bytes counted so far. */
  get spent(): number {
    return this.spentBytes;
  }

  /** True once an event was dropped or reduced. */
  get exhausted(): boolean {
    return this.droppedCount + this.reducedCount > 0;
  }

  /** Counts `bytes` against the budget (raw evidence kept, a preview written). */
  spend(bytes: number): void {
    this.spentBytes += bytes;
  }

  /**
   * Decides what happens to an event whose payload costs `costBytes`, and counts it: `full` spends
   * the bytes; `reduced` and `dropped` are tallied for the summary. `exempt` events (and the
   * execution's own lifecycle events: a few, small) go whole and outside the budget.
   */
  admit(kind: EventKind, costBytes: number, exempt = false): BudgetDecision {
    if (exempt || EXEMPT.has(kind)) return 'full';
    if (costBytes <= this.remaining) {
      this.spentBytes += costBytes;
      return 'full';
    }
    if (DROPPABLE.has(kind)) {
      this.droppedCount += 1;
      this.droppedKinds[kind] = (this.droppedKinds[kind] ?? 0) + 1;
      return 'dropped';
    }
    this.reducedCount += 1;
    return 'reduced';
  }

  /** The payload of the `evidence_budget_exhausted` diagnostic. */
  summary(): JsonObject {
    return {
      code: EVIDENCE_BUDGET_EXHAUSTED,
      message:
        `the execution's evidence budget of ${this.limitBytes} bytes ran out: ${this.droppedCount} events were ` +
        `dropped and ${this.reducedCount} kept without their payload; a server or agent sent more than a trace keeps`,
      budgetBytes: this.limitBytes,
      droppedEvents: this.droppedCount,
      droppedByKind: { ...this.droppedKinds },
      reducedEvents: this.reducedCount,
    };
  }
}
