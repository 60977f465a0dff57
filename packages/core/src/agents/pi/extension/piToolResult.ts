import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/** Content Pi's tools return: text and images (what its providers can send back to a model). */
export type PiToolContent = { type: 'text'; text: string } | { type: 'image'; data: string; mimeType: string };

/** An MCP tool result as Pi takes it from an extension tool's `execute`. */
export interface PiToolOutput {
  readonly content: PiToolContent[];
  /** Kept in the session and in `tool_execution_end` (the trace records `structuredContent` from here). */
  readonly details: { server: string; tool: string; structuredContent?: unknown };
  /** The text blocks joined, for the error a failed result becomes. */
  readonly text: string;
}

/**
 * MCP content to Pi content: text and images as they are; audio, resources and links as their JSON
 * text (Pi has no block for them); an empty result with `structuredContent` as that JSON.
 */
export function toPiToolOutput(result: CallToolResult, server: string, tool: string): PiToolOutput {
  const content: PiToolContent[] = [];
  for (const block of Array.isArray(result.content) ? result.content : []) {
    if (block.type === 'text') content.push({ type: 'text', text: block.text });
    else if (block.type === 'image') content.push({ type: 'image', data: block.data, mimeType: block.mimeType });
    else content.push({ type: 'text', text: JSON.stringify(block) });
  }
  if (content.length === 0 && result.structuredContent !== undefined) {
    content.push({ type: 'text', text: JSON.stringify(result.structuredContent) });
  }
  const text = content.flatMap((c) => (c.type === 'text' ? [c.text] : [])).join('\n');
  const details = {
    server,
    tool,
    ...(result.structuredContent !== undefined && { structuredContent: result.structuredContent }),
  };
  return { content, details, text };
}
