import { mergeSurfaceEvidence } from './mergeSurfaceEvidence';
import { serverEvidence, tool, use } from './surfaceEvidence.testkit';

const shipping = {
  shipping_quote: tool('q1', ['weight_kg', 'zone'], { zone: ['local', 'regional', 'international'] }),
  shipping_cancel: tool('c1', ['order_id']),
  shipping_track: tool('t1', ['order_id', 'verbose']),
};

describe('mergeSurfaceEvidence', () => {
  it('sums calls and successes across executions and measures the four tool levels over what was advertised', () => {
    const listing = { shipping: serverEvidence({ tools: shipping }) };
    const first = {
      shipping: serverEvidence({ uses: { shipping_quote: use(2, 1, { weight_kg: [1], zone: ['local'] }) } }),
    };
    const second = {
      shipping: serverEvidence({
        uses: { shipping_quote: use(1, 1, { zone: ['regional', 'local'] }), ghost: use(1, 0) },
      }),
    };
    const coverage = mergeSurfaceEvidence('run-1', [listing, first, second]);
    expect(coverage.runId).toBe('run-1');
    const [server] = coverage.servers;
    expect(server!.measures).toEqual({
      tools: { covered: 1, total: 3, percent: (1 / 3) * 100 },
      toolsSucceeded: { covered: 1, total: 3, percent: (1 / 3) * 100 },
      properties: { covered: 2, total: 5, percent: 40 },
      enums: { covered: 2, total: 3, percent: (2 / 3) * 100 },
      prompts: { covered: 0, total: 0, percent: null },
      resources: { covered: 0, total: 0, percent: null },
    });
    expect(server!.neverCalled).toEqual(['shipping_cancel', 'shipping_track']);
    expect(server!.unadvertisedCalls).toEqual(['ghost']);
    expect(server!.tools.find((row) => row.tool === 'shipping_quote')).toEqual({
      tool: 'shipping_quote',
      calls: 3,
      successes: 2,
      propertiesUsed: ['weight_kg', 'zone'],
      propertiesUnused: [],
      enumValuesUsed: ['zone="local"', 'zone="regional"'],
      enumValuesUnused: ['zone="international"'],
      redefined: false,
    });
  });

  it('marks a tool whose listings showed two definitions as redefined', () => {
    const before = { s: serverEvidence({ tools: { t: tool('a') } }) };
    const after = { s: serverEvidence({ tools: { t: tool('b') } }) };
    expect(mergeSurfaceEvidence('r', [before, after]).servers[0]!.tools[0]!.redefined).toBe(true);
    expect(mergeSurfaceEvidence('r', [before, before]).servers[0]!.tools[0]!.redefined).toBe(false);
  });

  it('covers prompts fetched, static resources read and templates a read URI matches', () => {
    const evidence = serverEvidence({
      prompts: ['review', 'summarize'],
      resources: ['memory://guide', 'memory://other'],
      resourceTemplates: ['memory://orders/{id}', 'file:///{+path}', 'memory://users/{id}'],
      promptGets: { review: 1 },
      reads: { 'memory://guide': 2, 'memory://orders/42': 1, 'file:///a/b/c.txt': 1 },
    });
    const [server] = mergeSurfaceEvidence('r', [{ s: evidence }]).servers;
    expect(server!.measures.prompts).toEqual({ covered: 1, total: 2, percent: 50 });
    expect(server!.measures.resources).toEqual({ covered: 3, total: 5, percent: 60 });
    expect(server!.promptsUnused).toEqual(['summarize']);
    expect(server!.resourcesUnused).toEqual(['memory://other', 'memory://users/{id}']);
  });

  it('keeps an unlisted kind at total 0 and reports no unadvertised calls when tools were never listed', () => {
    const [server] = mergeSurfaceEvidence('r', [{ s: serverEvidence({ uses: { t: use(1, 1) } }) }]).servers;
    expect(server!.listed.tools).toBe(false);
    expect(server!.measures.tools).toEqual({ covered: 0, total: 0, percent: null });
    expect(server!.unadvertisedCalls).toEqual([]);
  });

  it('sorts servers by name and merges nothing into an empty run', () => {
    const coverage = mergeSurfaceEvidence('r', [{ b: serverEvidence({}) }, { a: serverEvidence({}) }]);
    expect(coverage.servers.map((s) => s.server)).toEqual(['a', 'b']);
    expect(mergeSurfaceEvidence('r', [])).toEqual({ runId: 'r', servers: [] });
  });
});
