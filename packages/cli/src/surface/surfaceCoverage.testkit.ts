// A run's surface coverage for the CLI's formatter, gate and JUnit tests: the shipping server of
// the contract's example (9 tools, 7 called, an enum, a redefined tool, a call to an unadvertised
// tool), a server whose tools no test listed, merged by the real `mergeSurfaceEvidence`.
import { type AdvertisedTool, mergeSurfaceEvidence, type RunSurfaceCoverage, type ToolUse } from '@sf-m3/core';

const tool = (hash: string, properties: string[] = [], enums: AdvertisedTool['enums'] = {}): AdvertisedTool => ({
  definitionHash: hash,
  properties,
  enums,
});
const use = (calls: number, successes: number, valuesUsed: ToolUse['valuesUsed'] = {}): ToolUse => ({
  calls,
  successes,
  propertiesUsed: Object.keys(valuesUsed).sort(),
  valuesUsed,
});
const noListing = { tools: false, prompts: false, resources: false, resourceTemplates: false };
const nothingAdvertised = { tools: {}, prompts: {}, resources: {}, resourceTemplates: {} };

const shippingTools: Record<string, AdvertisedTool> = {
  shipping_quote: tool('q1', ['weight_kg', 'zone'], { zone: ['local', 'regional', 'international'] }),
  shipping_cancel: tool('c1', ['order_id']),
  shipping_track: tool('t1', ['order_id']),
  order_create: tool('o1', ['item', 'quantity']),
  order_get: tool('g1', ['order_id']),
  order_list: tool('l1'),
  customer_normalize: tool('n1', ['name']),
  batch_total: tool('b1', ['values']),
  always_fails: tool('f1'),
};

/** The run: `shipping` (listed twice, `shipping_quote` changed in between) and `billing` (never listed). */
export function exampleCoverage(): RunSurfaceCoverage {
  return mergeSurfaceEvidence('run-1', [
    {
      shipping: {
        listed: { tools: true, prompts: true, resources: true, resourceTemplates: false },
        advertised: {
          tools: shippingTools,
          prompts: { review_order: 'p1' },
          resources: { 'memory://guide': 'r1', 'memory://rates': 'r2' },
          resourceTemplates: {},
        },
        toolDefinitionHistory: Object.fromEntries(
          Object.entries(shippingTools).map(([n, t]) => [n, [t.definitionHash]]),
        ),
        tools: {
          shipping_quote: use(3, 3, { weight_kg: [2], zone: ['local', 'regional'] }),
          order_create: use(1, 1, { item: ['box'], quantity: [1] }),
          order_get: use(1, 1, { order_id: ['o-1'] }),
          order_list: use(1, 1),
          customer_normalize: use(1, 1, { name: ['Ada'] }),
          batch_total: use(1, 1, { values: [] }),
          always_fails: use(2, 0),
          shiping_quote: use(1, 0),
        },
        prompts: { review_order: 1 },
        resources: { 'memory://guide': 1 },
      },
    },
    {
      shipping: {
        listed: { tools: true, prompts: false, resources: false, resourceTemplates: false },
        advertised: {
          ...nothingAdvertised,
          tools: { shipping_quote: tool('q2', ['weight_kg', 'zone'], shippingTools.shipping_quote!.enums) },
        },
        toolDefinitionHistory: { shipping_quote: ['q2'] },
        tools: {},
        prompts: {},
        resources: {},
      },
      billing: {
        listed: noListing,
        advertised: nothingAdvertised,
        toolDefinitionHistory: {},
        tools: { charge: use(2, 2, { amount: [5] }) },
        prompts: {},
        resources: {},
      },
    },
  ]);
}
