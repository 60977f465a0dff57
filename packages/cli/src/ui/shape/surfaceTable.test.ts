import type { CoverageCount, ServerSurfaceCoverage } from '@sf-m3/core';
import { coverageText, surfaceLists, surfaceMeasuresLine, surfaceToolRows, unlistedToolsNote } from './surfaceTable';

const count = (covered: number, total: number): CoverageCount => ({
  covered,
  total,
  percent: total === 0 ? null : (covered / total) * 100,
});

/** A shipping server with three advertised tools: one covered, one only failing, one never called. */
const shipping: ServerSurfaceCoverage = {
  server: 'shipping',
  listed: { tools: true, prompts: false, resources: true, resourceTemplates: false },
  measures: {
    tools: count(2, 3),
    toolsSucceeded: count(1, 3),
    properties: count(2, 5),
    enums: count(1, 3),
    prompts: count(0, 0),
    resources: count(0, 1),
  },
  neverCalled: ['shipping_track'],
  neverSucceeded: ['shipping_cancel'],
  promptsUnused: [],
  resourcesUnused: ['shipping://zones'],
  unadvertisedCalls: ['shiping_quote'],
  tools: [
    {
      tool: 'shipping_cancel',
      calls: 2,
      successes: 0,
      propertiesUsed: ['order_id'],
      propertiesUnused: [],
      enumValuesUsed: [],
      enumValuesUnused: [],
      redefined: false,
    },
    {
      tool: 'shipping_quote',
      calls: 3,
      successes: 3,
      propertiesUsed: ['weight_kg'],
      propertiesUnused: ['zone'],
      enumValuesUsed: ['zone="eu"'],
      enumValuesUnused: ['zone="us"', 'zone="<b>asia</b>"'],
      redefined: true,
    },
    {
      tool: 'shiping_quote',
      calls: 1,
      successes: 0,
      propertiesUsed: ['weight_kg'],
      propertiesUnused: [],
      enumValuesUsed: [],
      enumValuesUnused: [],
      redefined: false,
    },
    {
      tool: 'shipping_track',
      calls: 0,
      successes: 0,
      propertiesUsed: [],
      propertiesUnused: ['tracking_id'],
      enumValuesUsed: [],
      enumValuesUnused: [],
      redefined: false,
    },
  ],
};

describe('surfaceToolRows', () => {
  test('one row per tool: counts, properties and enum values as used/declared (– for a tool no listing advertised), the redefined mark and a state', () => {
    expect(surfaceToolRows(shipping)).toEqual([
      {
        tool: 'shipping_cancel',
        calls: 2,
        successes: 0,
        properties: '1/1',
        propertiesUnused: [],
        enumValues: '–',
        enumValuesUnused: [],
        redefined: false,
        state: 'never_succeeded',
      },
      {
        tool: 'shipping_quote',
        calls: 3,
        successes: 3,
        properties: '1/2',
        propertiesUnused: ['zone'],
        enumValues: '1/3',
        enumValuesUnused: ['zone="us"', 'zone="<b>asia</b>"'],
        redefined: true,
        state: 'covered',
      },
      {
        tool: 'shiping_quote',
        calls: 1,
        successes: 0,
        properties: '–',
        propertiesUnused: [],
        enumValues: '–',
        enumValuesUnused: [],
        redefined: false,
        state: 'unadvertised',
      },
      {
        tool: 'shipping_track',
        calls: 0,
        successes: 0,
        properties: '0/1',
        propertiesUnused: ['tracking_id'],
        enumValues: '–',
        enumValuesUnused: [],
        redefined: false,
        state: 'never_called',
      },
    ]);
  });
});

describe('surfaceMeasuresLine', () => {
  test('names every measure with covered/total and percent; a kind no execution listed says so', () => {
    expect(surfaceMeasuresLine(shipping)).toBe(
      'tools called 2/3 (66.7%) · tools succeeded 1/3 (33.3%) · properties 2/5 (40.0%) · ' +
        'enum values 1/3 (33.3%) · prompts not listed · resources 0/1 (0.0%)',
    );
  });

  test('a listed kind with nothing advertised is a dash, not 0%', () => {
    const none = { ...shipping, listed: { ...shipping.listed, prompts: true } };
    expect(surfaceMeasuresLine(none)).toContain('prompts –');
    expect(coverageText(count(0, 0))).toBe('–');
    expect(coverageText(count(9, 9))).toBe('9/9 (100.0%)');
  });
});

describe('surfaceLists', () => {
  test('never called first, then the other non-empty lists; empty ones are left out', () => {
    expect(surfaceLists(shipping)).toEqual([
      { label: 'never called', items: ['shipping_track'] },
      { label: 'called, never succeeded', items: ['shipping_cancel'] },
      { label: 'called but not advertised', items: ['shiping_quote'] },
      { label: 'resources never read', items: ['shipping://zones'] },
    ]);
  });
});

describe('unlistedToolsNote', () => {
  test('a server whose tools no execution listed says how to make coverage judgeable', () => {
    expect(unlistedToolsNote(shipping)).toBeNull();
    const unlisted = { ...shipping, listed: { ...shipping.listed, tools: false }, tools: [] };
    expect(unlistedToolsNote(unlisted)).toMatch(/tools\/list .*cannot be judged.*listAllTools\(\)/);
  });
});
