// The text of a reasoning entry for the execution view. Hidden or encrypted reasoning keeps its
// state (`encrypted`, `provider_hidden`, …) so the view says so instead of showing empty text.
import type { ContentBlock, Observation } from '@sf-m3/core';

/** What one reasoning entry shows. */
export interface ShownReasoning {
  /** Set when the source kept the reasoning's text (possibly `truncated` or `redacted`). */
  text: string | null;
  /** The content's Observation state (`observed`, `encrypted`, `provider_hidden`, `not_emitted`…). */
  state: string;
  reason: string | null;
  /** Blocks that carry no text (a provider's signature or opaque block), shown as JSON. */
  opaqueBlocks: ContentBlock[];
}

/** The text blocks of observed reasoning joined by lines; other blocks kept apart; other states as they are. */
export function reasoningText(content: Observation<ContentBlock[]>): ShownReasoning {
  const reason = content.reason ?? null;
  if (content.value === null) return { text: null, state: content.state, reason, opaqueBlocks: [] };
  const texts: string[] = [];
  const opaqueBlocks: ContentBlock[] = [];
  for (const block of content.value) {
    if ('text' in block && typeof block.text === 'string') texts.push(block.text);
    else opaqueBlocks.push(block);
  }
  return { text: texts.join('\n'), state: content.state, reason, opaqueBlocks };
}
