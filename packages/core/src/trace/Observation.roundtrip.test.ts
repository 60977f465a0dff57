// JSON round trips of Observation values, checked strictly (no undefined keys, same key order, the
// same bytes) for every state/reason pair, and for every Observation inside a real direct trace view.
import { createExampleServer } from '@sf-m3/example-servers';
import { MCPTestKit } from '../kit/MCPTestKit';
import { InProcessServer } from '../servers/InProcessServer';
import { observation, parseObservation, type Observation, type ObservationReason } from './Observation';
import { TraceResult } from './TraceResult';
import type { TraceViewData } from './TraceEntry';
import { TraceView } from './TraceView';

const PAIRS: Array<[Observation<unknown>['state'], unknown, ObservationReason | undefined]> = [
  ['observed', { nested: [1, 'two', null, { deep: true }] }, undefined],
  ['observed', null, undefined],
  ['observed', 0, undefined],
  ['observed', '', undefined],
  ['not_emitted', null, 'provider_did_not_emit'],
  ['provider_hidden', null, 'provider_hidden'],
  ['encrypted', null, 'provider_encrypted'],
  ['unsupported', null, 'harness_unsupported'],
  ['unsupported', null, 'transport_not_applicable'],
  ['unavailable', null, 'capture_disabled'],
  ['unavailable', null, 'capture_failed'],
  ['unavailable', null, 'correlation_unavailable'],
  ['unavailable', null, 'malformed_source'],
  ['redacted', '[REDACTED]', 'redacted_by_policy'],
  ['truncated', 'safe prefix', 'evidence_truncated'],
];

/** Every `{ state, value, ... }` object reachable from `root`. */
function observationsIn(root: unknown, found: unknown[] = []): unknown[] {
  if (Array.isArray(root)) {
    for (const item of root) observationsIn(item, found);
  } else if (root !== null && typeof root === 'object') {
    const record = root as Record<string, unknown>;
    if (typeof record.state === 'string' && 'value' in record) found.push(record);
    for (const value of Object.values(record)) observationsIn(value, found);
  }
  return found;
}

describe('Observation JSON round trip', () => {
  test.each(PAIRS)('%s (%j, %s) comes back byte for byte', (state, value, reason) => {
    const original = observation(state, value, reason);
    const text = JSON.stringify(original);
    const parsed = parseObservation(JSON.parse(text));
    expect(parsed).toStrictEqual(JSON.parse(text));
    expect(JSON.stringify(parsed)).toBe(text);
    expect(Object.keys(parsed)).toEqual(reason === undefined ? ['state', 'value'] : ['state', 'value', 'reason']);
  });

  test('every Observation in a real direct trace view parses back exactly, and the view and trace round-trip', async () => {
    const kit = new MCPTestKit();
    try {
      const client = await kit.direct(new InProcessServer({ name: 'example', factory: createExampleServer })).connect();
      await client.callTool('shipping_quote', { weight_kg: 2, zone: 'local' });
      await client.callTool('always_fails');
      await client.readResource('memory://testing-guide');
      await client.close();
      const view = client.result!.traceView;
      const text = JSON.stringify(view);
      const found = observationsIn(JSON.parse(text));
      expect(found.length).toBeGreaterThan(10);
      const states = new Set(found.map((o) => (o as { state: string }).state));
      expect(states.has('observed')).toBe(true);
      expect(states.size).toBeGreaterThan(1);
      for (const o of found) expect(JSON.stringify(parseObservation(o))).toBe(JSON.stringify(o));

      const back = TraceView.fromData(JSON.parse(text) as TraceViewData);
      expect(JSON.stringify(back)).toBe(text);
      expect(back.toJSON()).toStrictEqual(JSON.parse(text));
      const trace = client.finalTrace!;
      const traceText = JSON.stringify(trace);
      const traceBack = TraceResult.fromJSON(JSON.parse(traceText));
      expect(JSON.stringify(traceBack)).toBe(traceText);
      expect(JSON.stringify(traceBack.view())).toBe(text);
    } finally {
      await kit.close();
    }
  });
});
