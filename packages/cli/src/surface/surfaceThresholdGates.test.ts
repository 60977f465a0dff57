import { MAX_LISTED_UNCOVERED, surfaceThresholdGates } from './surfaceThresholdGates';
import { exampleCoverage } from './surfaceCoverage.testkit';
import { mergeSurfaceEvidence } from '@sf-m3/core';

describe('surfaceThresholdGates', () => {
  it('holds nothing without a threshold', () => {
    expect(surfaceThresholdGates(null, exampleCoverage())).toEqual([]);
  });

  it('fails one gate per missed server and measure, naming what is uncovered', () => {
    const gates = surfaceThresholdGates(
      { value: { global: { tools: 100 }, shipping: { enums: 50 }, shipment: { tools: 10 } }, source: 'package.json' },
      exampleCoverage(),
    );
    expect(gates.map((gate) => [gate.passed, gate.message])).toEqual([
      [false, 'surface shipping tools ≥ 100%: 77.8% (7/9) — never called: shipping_cancel, shipping_track'],
      [
        false,
        'surface shipment tools ≥ 10%: no execution of this run reached server shipment (check the name in surfaceThreshold)',
      ],
    ]);
    expect(gates[0]).toMatchObject({
      kind: 'surface_threshold',
      threshold: 100,
      source: 'package.json',
      surface: { server: 'shipping', measure: 'tools', uncovered: ['shipping_cancel', 'shipping_track'] },
    });
  });

  it('passes with one row when every server meets its thresholds', () => {
    const gates = surfaceThresholdGates({ value: { global: { tools: 70 } }, source: 'jest config' }, exampleCoverage());
    expect(gates).toEqual([
      expect.objectContaining({ passed: true, kind: 'surface_threshold', source: 'jest config' }),
    ]);
  });

  it('cuts a long uncovered list in the message but keeps it whole on the gate', () => {
    const tools = Object.fromEntries(
      Array.from({ length: 25 }, (_, i) => [
        `t${String(i).padStart(2, '0')}`,
        { definitionHash: `h${i}`, properties: [], enums: {} },
      ]),
    );
    const coverage = mergeSurfaceEvidence('r', [
      {
        s: {
          listed: { tools: true, prompts: false, resources: false, resourceTemplates: false },
          advertised: { tools, prompts: {}, resources: {}, resourceTemplates: {} },
          toolDefinitionHistory: {},
          tools: {},
          prompts: {},
          resources: {},
        },
      },
    ]);
    const [gate] = surfaceThresholdGates({ value: { s: { tools: 1 } }, source: 'package.json' }, coverage);
    expect(gate!.message).toMatch(/t19 … and 5 more$/);
    expect(gate!.surface!.uncovered).toHaveLength(25);
    expect(MAX_LISTED_UNCOVERED).toBe(20);
  });
});
