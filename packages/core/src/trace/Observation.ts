import { ModelValidationError } from '../errors';

/** What a source told us about a field: observed, or why not. */
export const ObservationState = Object.freeze({
  OBSERVED: 'observed',
  NOT_EMITTED: 'not_emitted',
  UNAVAILABLE: 'unavailable',
  UNSUPPORTED: 'unsupported',
  PROVIDER_HIDDEN: 'provider_hidden',
  ENCRYPTED: 'encrypted',
  REDACTED: 'redacted',
  TRUNCATED: 'truncated',
} as const);
export type ObservationState = (typeof ObservationState)[keyof typeof ObservationState];

/** Why a field is not observed. */
export type ObservationReason =
  | 'provider_did_not_emit'
  | 'provider_hidden'
  | 'provider_encrypted'
  | 'harness_unsupported'
  | 'transport_not_applicable'
  | 'capture_disabled'
  | 'capture_failed'
  | 'evidence_truncated'
  | 'redacted_by_policy'
  | 'correlation_unavailable'
  | 'malformed_source';

/** A field with its provenance state; `value` is null unless the state allows a value. */
export interface Observation<T> {
  readonly state: ObservationState;
  readonly value: T | null;
  readonly reason?: ObservationReason;
}

const ALLOWED_REASONS: Record<ObservationState, readonly ObservationReason[]> = {
  observed: [],
  not_emitted: ['provider_did_not_emit'],
  provider_hidden: ['provider_hidden'],
  encrypted: ['provider_encrypted'],
  redacted: ['redacted_by_policy'],
  truncated: ['evidence_truncated'],
  unsupported: ['harness_unsupported', 'transport_not_applicable'],
  unavailable: ['capture_disabled', 'capture_failed', 'correlation_unavailable', 'malformed_source'],
};
const VALUE_ALLOWED: ReadonlySet<ObservationState> = new Set(['observed', 'redacted', 'truncated']);

/** Builds an observation, enforcing the state/reason/value rules. */
export function observation<T>(
  state: ObservationState,
  value: T | null = null,
  reason?: ObservationReason,
): Observation<T> {
  if (!(state in ALLOWED_REASONS)) {
    throw new ModelValidationError(`unknown observation state: ${String(state)}`);
  }
  const allowed = ALLOWED_REASONS[state];
  if (state === 'observed') {
    if (reason !== undefined) throw new ModelValidationError('an observed value carries no reason');
    return Object.freeze({ state, value });
  }
  const effectiveReason = reason ?? allowed[0];
  if (effectiveReason === undefined || !allowed.includes(effectiveReason)) {
    throw new ModelValidationError(
      `observation state ${state} does not allow reason ${String(reason)}: use one of ${allowed.join(', ')}`,
    );
  }
  if (!VALUE_ALLOWED.has(state) && value !== null) {
    throw new ModelValidationError(`observation state ${state} must not carry a value`);
  }
  return Object.freeze({ state, value, reason: effectiveReason });
}

/** An observed value. */
export const observed = <T>(value: T): Observation<T> => observation('observed', value);
/** The source did not emit this field. */
export const notEmitted = <T>(): Observation<T> => observation<T>('not_emitted', null, 'provider_did_not_emit');
/** This runtime cannot report the field at all. */
export const unsupported = <T>(
  reason: 'harness_unsupported' | 'transport_not_applicable' = 'harness_unsupported',
): Observation<T> => observation<T>('unsupported', null, reason);
/** The field could not be captured. */
export const unavailable = <T>(
  reason: 'capture_disabled' | 'capture_failed' | 'correlation_unavailable' | 'malformed_source' = 'capture_failed',
): Observation<T> => observation<T>('unavailable', null, reason);

/** Validates a parsed JSON object as an observation (used when reading stored views). */
export function parseObservation<T>(input: unknown): Observation<T> {
  if (typeof input !== 'object' || input === null) throw new ModelValidationError('an observation must be an object');
  const o = input as { state?: unknown; value?: unknown; reason?: unknown };
  return observation<T>(
    o.state as ObservationState,
    (o.value ?? null) as T | null,
    o.reason as ObservationReason | undefined,
  );
}
