import { toPiToolOutput } from './piToolResult';

describe('MCP tool results as Pi tool output', () => {
  it('keeps text and images, writes other blocks as JSON text, and keeps structuredContent in details', () => {
    const output = toPiToolOutput(
      {
        content: [
          { type: 'text', text: 'a' },
          { type: 'image', data: 'AAAA', mimeType: 'image/png' },
          { type: 'resource_link', uri: 'file:///x', name: 'x' },
        ],
        structuredContent: { amount: 9 },
      },
      'example',
      'shipping_quote',
    );
    expect(output.content).toEqual([
      { type: 'text', text: 'a' },
      { type: 'image', data: 'AAAA', mimeType: 'image/png' },
      { type: 'text', text: '{"type":"resource_link","uri":"file:///x","name":"x"}' },
    ]);
    expect(output.details).toEqual({ server: 'example', tool: 'shipping_quote', structuredContent: { amount: 9 } });
    expect(output.text).toBe('a\n{"type":"resource_link","uri":"file:///x","name":"x"}');
  });

  it('sends structuredContent as text when the result has no content', () => {
    expect(toPiToolOutput({ content: [], structuredContent: { ok: true } }, 's', 't').content).toEqual([
      { type: 'text', text: '{"ok":true}' },
    ]);
  });
});
