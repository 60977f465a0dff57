import { normalizeToolPolicy } from '../../proxy/toolPolicy';
import { allowsEveryTool, nativeToolSelection, splitPrefixedToolName } from './nativeToolSelection';

const servers = [{ name: 'shipping' }, { name: 'math' }];
const policies = (tools: string[] | undefined) =>
  new Map(servers.map((s) => [s.name, normalizeToolPolicy(s.name, tools, ['shipping', 'math'])]));

describe('nativeToolSelection', () => {
  it('allows every tool of every server when the run names no tools', () => {
    const selection = nativeToolSelection(servers, policies(undefined));
    expect(selection).toEqual([
      { server: 'shipping', tools: 'all' },
      { server: 'math', tools: 'all' },
    ]);
    expect(allowsEveryTool(selection)).toBe(true);
  });

  it('lists the allowed tools per server, none for a server the list skips', () => {
    const selection = nativeToolSelection(servers, policies(['shipping:quote', 'shipping:track']));
    expect(selection).toEqual([
      { server: 'shipping', tools: ['quote', 'track'] },
      { server: 'math', tools: [] },
    ]);
    expect(allowsEveryTool(selection)).toBe(false);
  });

  it('denies everything for tools: []', () => {
    expect(nativeToolSelection(servers, policies([])).map((s) => s.tools)).toEqual([[], []]);
  });
});

describe('splitPrefixedToolName', () => {
  it('splits a Claude Code name and an OpenCode name', () => {
    expect(splitPrefixedToolName('mcp__shipping__quote', ['shipping'], 'mcp__', '__')).toEqual({
      server: 'shipping',
      tool: 'quote',
    });
    expect(splitPrefixedToolName('shipping_quote_fast', ['shipping'], '', '_')).toEqual({
      server: 'shipping',
      tool: 'quote_fast',
    });
  });

  it('lets the longest server name win', () => {
    expect(splitPrefixedToolName('a_b_tool', ['a', 'a_b'], '', '_')).toEqual({ server: 'a_b', tool: 'tool' });
  });

  it('says nothing for a built-in tool or a name with no tool part', () => {
    expect(splitPrefixedToolName('Read', ['shipping'], 'mcp__', '__')).toBeUndefined();
    expect(splitPrefixedToolName('mcp__shipping__', ['shipping'], 'mcp__', '__')).toBeUndefined();
    expect(splitPrefixedToolName('bash', ['shipping'], '', '_')).toBeUndefined();
  });
});
