import { ModelValidationError } from '../errors';
import {
  notEmitted,
  observation,
  observed,
  parseObservation,
  unavailable,
  unsupported,
  type ObservationState,
} from './Observation';

describe('Observation', () => {
  it('observed values carry a value (null allowed) and no reason', () => {
    expect(observed(3)).toEqual({ state: 'observed', value: 3 });
    expect(observed(null)).toEqual({ state: 'observed', value: null });
    expect(() => observation('observed', 1, 'provider_hidden')).toThrow(/observed value carries no reason/);
  });

  it.each([
    ['not_emitted', 'provider_did_not_emit'],
    ['provider_hidden', 'provider_hidden'],
    ['encrypted', 'provider_encrypted'],
    ['unsupported', 'harness_unsupported'],
    ['unsupported', 'transport_not_applicable'],
    ['unavailable', 'capture_disabled'],
    ['unavailable', 'capture_failed'],
    ['unavailable', 'correlation_unavailable'],
    ['unavailable', 'malformed_source'],
  ] as const)('%s allows reason %s and no value', (state, reason) => {
    expect(observation(state, null, reason)).toEqual({ state, value: null, reason });
    expect(() => observation(state, 'x', reason)).toThrow(`observation state ${state} must not carry a value`);
  });

  it.each([
    ['redacted', 'redacted_by_policy', '[REDACTED]'],
    ['truncated', 'evidence_truncated', 'safe prefix'],
  ] as const)('%s allows reason %s with a value', (state, reason, value) => {
    expect(observation(state, value, reason)).toEqual({ state, value, reason });
  });

  it.each([
    ['not_emitted', 'provider_hidden'],
    ['unsupported', 'capture_failed'],
    ['unavailable', 'harness_unsupported'],
    ['redacted', 'evidence_truncated'],
  ] as const)('%s rejects reason %s', (state, reason) => {
    expect(() => observation(state, null, reason)).toThrow(ModelValidationError);
  });

  it('defaults the reason of a state with a single reason', () => {
    expect(notEmitted()).toEqual({ state: 'not_emitted', value: null, reason: 'provider_did_not_emit' });
    expect(unsupported()).toEqual({ state: 'unsupported', value: null, reason: 'harness_unsupported' });
    expect(unavailable()).toEqual({ state: 'unavailable', value: null, reason: 'capture_failed' });
  });

  it('rejects unknown states', () => {
    expect(() => observation('maybe' as ObservationState)).toThrow(/unknown observation state: maybe/);
  });

  it('round-trips through JSON and parses back', () => {
    for (const o of [
      observed({ a: [1, null] }),
      notEmitted(),
      unavailable('malformed_source'),
      observation('truncated', 'ab', 'evidence_truncated'),
    ]) {
      const json = JSON.parse(JSON.stringify(o)) as unknown;
      expect(json).toEqual(o);
      expect(parseObservation(json)).toEqual(o);
    }
    expect(() => parseObservation('observed')).toThrow(/must be an object/);
  });
});
