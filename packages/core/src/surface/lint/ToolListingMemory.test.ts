import { TOOL_LISTING_MEMORY, ToolListingMemory, toolListingMemory } from './ToolListingMemory';
import { toolDescriptor } from './toolDescriptor';

describe('ToolListingMemory', () => {
  test('keeps each distinct descriptor of a tool once, per server name, with where it was first seen', () => {
    const memory = new ToolListingMemory();
    const v1 = { name: 'a', description: 'one', inputSchema: { type: 'object' } };
    const v2 = { ...v1, description: 'two' };
    memory.remember('srv', [v1], 'execution e1');
    memory.remember('srv', [{ ...v1, inputSchema: { type: 'object' } }], 'execution e2');
    memory.remember('srv', [v2], 'execution e3');
    memory.remember('other', [v2], 'execution e4');
    const listings = memory.listings('srv');
    expect(listings.map((l) => l.source)).toEqual([
      'a listing of server "srv" in execution e1',
      'a listing of server "srv" in execution e3',
    ]);
    expect(listings[1]!.descriptors.get('a')).toBe(toolDescriptor(v2));
    expect(memory.listings('unknown')).toEqual([]);
  });

  test('descriptors ignore key order and fields other than description and schemas', () => {
    expect(
      toolDescriptor({ name: 'a', description: 'd', inputSchema: { type: 'object', properties: {} }, title: 'T' }),
    ).toBe(toolDescriptor({ inputSchema: { properties: {}, type: 'object' }, description: 'd', name: 'b' }));
  });

  test('the process memory lives on globalThis under a registry symbol (shared by Jest realms)', () => {
    const memory = toolListingMemory();
    expect((globalThis as Record<symbol, unknown>)[TOOL_LISTING_MEMORY]).toBe(memory);
    expect(toolListingMemory()).toBe(memory);
  });
});
