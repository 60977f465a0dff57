import { acpToolIdentity } from './acpToolIdentity';

describe('acpToolIdentity', () => {
  it('reads mcp__server__tool, server:tool and MCP tool · server:tool', () => {
    expect(acpToolIdentity('mcp__example__shipping_quote', ['a', 'b'])).toEqual({
      server: 'example',
      tool: 'shipping_quote',
    });
    expect(acpToolIdentity('example:shipping_quote', ['example', 'math'])).toEqual({
      server: 'example',
      tool: 'shipping_quote',
    });
    expect(acpToolIdentity('MCP tool · math:add_tool', ['example', 'math'])).toEqual({
      server: 'math',
      tool: 'add_tool',
    });
  });

  it("reads Gemini CLI's `tool (server MCP Server)` for a server of the execution", () => {
    expect(acpToolIdentity('shipping_quote (example MCP Server)', ['example', 'math'])).toEqual({
      server: 'example',
      tool: 'shipping_quote',
    });
    expect(acpToolIdentity('shipping_quote (other MCP Server)', ['example', 'math'])).toEqual({
      server: null,
      tool: 'shipping_quote (other MCP Server)',
    });
  });

  it('takes a bare tool name for the only server, and leaves the rest serverless', () => {
    expect(acpToolIdentity('shipping_quote', ['example'])).toEqual({ server: 'example', tool: 'shipping_quote' });
    expect(acpToolIdentity('shipping_quote', ['example', 'math'])).toEqual({ server: null, tool: 'shipping_quote' });
    expect(acpToolIdentity('other:tool', ['example'])).toEqual({ server: null, tool: 'other:tool' });
    expect(acpToolIdentity('Read file /tmp/x', ['example'])).toEqual({ server: null, tool: 'Read file /tmp/x' });
  });
});
