import type { JsonObject, TraceEvent } from '@sf-m3/core';
import { catalogKey, listedTools, type ToolCatalog, type ToolCatalogs } from './collectToolCatalogs';
import { compareCatalogs } from './compareCatalogs';
import { definitionDifferences } from './definitionDifferences';

const quote: JsonObject = {
  name: 'shipping_quote',
  description: 'Quote a parcel',
  inputSchema: {
    type: 'object',
    properties: { weight_kg: { type: 'number' }, zone: { type: 'string', enum: ['local', 'regional'] } },
    required: ['weight_kg'],
  },
};
const total: JsonObject = {
  name: 'batch_total',
  inputSchema: { type: 'object', properties: { values: { type: 'array', items: { type: 'number' } } } },
  outputSchema: { type: 'object', properties: { total: { type: 'number' } } },
  annotations: { readOnlyHint: true },
};

function catalogs(...entries: Array<[string | null, string, JsonObject[]]>): ToolCatalogs {
  const map: ToolCatalogs = new Map();
  for (const [suiteName, server, tools] of entries) {
    const catalog: ToolCatalog = { suiteName, server, tools: new Map(tools.map((t) => [t.name as string, t])) };
    map.set(catalogKey(suiteName, server), catalog);
  }
  return map;
}

describe('compareCatalogs', () => {
  test('a renamed tool is one removal and one addition, each naming the other', () => {
    const renamed = { ...quote, name: 'quote_shipping' };
    const result = compareCatalogs(catalogs(['s', 'shop', [quote, total]]), catalogs(['s', 'shop', [renamed, total]]));
    expect(result).toEqual({
      compared: 1,
      notComparable: [],
      changes: [
        {
          suiteName: 's',
          server: 'shop',
          tool: 'shipping_quote',
          change: 'removed',
          fields: [],
          differences: [],
          renamed: 'quote_shipping',
        },
        {
          suiteName: 's',
          server: 'shop',
          tool: 'quote_shipping',
          change: 'added',
          fields: [],
          differences: [],
          renamed: 'shipping_quote',
        },
      ],
    });
  });

  test('schema, description and annotation changes are listed as JSON paths', () => {
    const after: JsonObject = {
      ...total,
      description: 'Adds numbers',
      inputSchema: {
        type: 'object',
        properties: { values: { type: 'array', items: { type: 'string' } }, currency: { type: 'string' } },
        required: ['values'],
      },
      outputSchema: { type: 'object', properties: {} },
      annotations: { readOnlyHint: false },
    };
    const [change] = compareCatalogs(catalogs(['s', 'shop', [total]]), catalogs(['s', 'shop', [after]])).changes;
    expect(change).toMatchObject({ tool: 'batch_total', change: 'changed', renamed: null });
    expect(change!.fields).toEqual(['annotations', 'description', 'inputSchema', 'outputSchema']);
    expect(change!.differences).toEqual([
      { path: '$.annotations.readOnlyHint', change: 'changed', before: true, after: false },
      { path: '$.description', change: 'added', before: null, after: 'Adds numbers' },
      { path: '$.inputSchema.properties.currency', change: 'added', before: null, after: { type: 'string' } },
      { path: '$.inputSchema.properties.values.items.type', change: 'changed', before: 'number', after: 'string' },
      { path: '$.inputSchema.required', change: 'added', before: null, after: ['values'] },
      { path: '$.outputSchema.properties.total', change: 'removed', before: { type: 'number' }, after: null },
    ]);
  });

  test('key order and the order of required/enum members are not changes', () => {
    const reordered: JsonObject = {
      inputSchema: {
        required: ['weight_kg'],
        properties: { zone: { enum: ['regional', 'local'], type: 'string' }, weight_kg: { type: 'number' } },
        type: 'object',
      },
      description: 'Quote a parcel',
      name: 'shipping_quote',
    };
    expect(compareCatalogs(catalogs([null, 'shop', [quote]]), catalogs([null, 'shop', [reordered]])).changes).toEqual(
      [],
    );
  });

  test('a server listed in one run only is not comparable, never a list of removals', () => {
    const result = compareCatalogs(
      catalogs(['s', 'shop', [quote]], ['s', 'old', [total]]),
      catalogs(['s', 'shop', [quote]], ['t', 'shop', [quote]]),
    );
    expect(result.compared).toBe(1);
    expect(result.changes).toEqual([]);
    expect(result.notComparable).toEqual([
      { suiteName: 's', server: 'old', seenIn: 'baseline' },
      { suiteName: 't', server: 'shop', seenIn: 'current' },
    ]);
  });
});

describe('definitionDifferences', () => {
  test('names keys that are not identifiers with brackets and array members by index', () => {
    expect(definitionDifferences({ 'a b': [1, 2] }, { 'a b': [1, 3, 4] })).toEqual([
      { path: '$["a b"][1]', change: 'changed', before: 2, after: 3 },
      { path: '$["a b"][2]', change: 'added', before: null, after: 4 },
    ]);
    expect(definitionDifferences({ required: ['a', 'b'] }, { required: ['b', 'c'] })).toEqual([
      { path: '$.required', change: 'added', before: null, after: 'c' },
      { path: '$.required', change: 'removed', before: 'a', after: null },
    ]);
  });
});

describe('listedTools', () => {
  const event = (sequence: number, server: string, method: string, result: unknown): TraceEvent =>
    ({
      schemaVersion: 1,
      eventId: `evt-x-${sequence}`,
      sequence,
      kind: 'mcp.response',
      executionId: 'x',
      timestamp: '2026-11-29T12:00:00.000Z',
      offsetMs: sequence,
      phase: 'mcp_call',
      origin: 'normalized',
      server,
      payload: { method, result },
    }) as TraceEvent;

  test('joins the pages of a paginated listing per server and ignores other responses', () => {
    const listed = listedTools([
      event(0, 'shop', 'tools/list', { tools: [quote], nextCursor: 'p2' }),
      event(1, 'shop', 'tools/list', { tools: [total] }),
      event(2, 'shop', 'resources/list', { resources: [] }),
      event(3, 'other', 'tools/list', { summary: 'payload too large' }),
    ]);
    expect([...listed.keys()]).toEqual(['shop']);
    expect(listed.get('shop')!.map((t) => t.name)).toEqual(['shipping_quote', 'batch_total']);
  });
});
