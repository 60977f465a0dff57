// Type fixture (compiled by readToolCall.types.test.ts, never run): content blocks from the public
// `sf-m3` types narrow on `type` (issue 27: TS18047/TS2339 on `block.text` after `block.type === 'text'`).
import type { ContentBlock, ToolCallEntry, ToolCallReading, ToolCallResult } from 'sf-m3';
import { readToolCall } from 'sf-m3';

export function describeBlock(block: ContentBlock): string {
  switch (block.type) {
    case 'text':
      return block.text.toUpperCase();
    case 'image':
    case 'audio':
      return `${block.mimeType}, ${block.data.length} base64 characters`;
    case 'resource_link':
      return `${block.name} at ${block.uri}`;
    case 'resource':
      return 'text' in block.resource ? block.resource.text : block.resource.blob;
  }
}

export function firstText(result: ToolCallResult): string | undefined {
  const block = result.content[0];
  // @ts-expect-error -- not narrowed: the first block may be an image, which has no text
  const notNarrowed: string | undefined = block?.text;
  const found = result.content.find((b) => b.type === 'text'); // TS ≥ 5.5 infers the predicate
  return block?.type === 'text' ? block.text : (found?.text ?? notNarrowed);
}

export function plainValues(call: ToolCallEntry): number {
  const read: ToolCallReading = readToolCall(call, 'reported');
  const text: string | undefined = read.text;
  // @ts-expect-error -- a value the trace may not have kept is never typed as present
  const sure: string = read.text;
  const side: 'wire' | 'reported' | null = read.side;
  return (text ?? sure).length + (side === null ? 0 : 1);
}
