import { toolDescriptor } from './toolDescriptor';
import { traceToolListings } from './traceToolListings';

const tool = (description: string) => ({ name: 'a', description, inputSchema: { type: 'object' } });
const response = (method: string, result: unknown) => ({ kind: 'mcp.response', payload: { method, result } });

describe('traceToolListings', () => {
  test("every tools/list response, oldest first, named by its place in the client's trace", () => {
    const listings = traceToolListings([
      { kind: 'mcp.request', payload: { method: 'tools/list', params: null } },
      response('tools/list', { tools: [tool('one')] }),
      response('prompts/list', { prompts: [] }),
      { kind: 'mcp.error', payload: { method: 'tools/list', error: { code: -1, message: 'x', data: null } } },
      response('tools/list', { tools: [tool('two'), { description: 'no name' }] }),
    ]);
    expect(listings.map((l) => l.source)).toEqual([
      "tools/list response 1 in this client's trace",
      "tools/list response 2 in this client's trace",
    ]);
    expect(listings[1]!.descriptors).toEqual(new Map([['a', toolDescriptor(tool('two'))]]));
  });

  test('malformed responses are skipped', () => {
    expect(traceToolListings([null, response('tools/list', null), response('tools/list', { tools: 'x' })])).toEqual([]);
  });
});
