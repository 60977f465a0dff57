/** The subjects text matchers accept, named for usage errors. */
export const TEXT_SUBJECTS = 'a string, a tool result, a resource read result or a TurnResult';

type Bag = Record<string, unknown>;
const isObject = (value: unknown): value is Bag => typeof value === 'object' && value !== null;

/** Joins the `text` of every text block, with no separator (upstream semantics). */
export function joinText(blocks: readonly unknown[]): string {
  return blocks.map((block) => (isObject(block) && typeof block.text === 'string' ? block.text : '')).join('');
}

/**
 * The joined text of a subject, or `undefined` when it has none: a string itself, a resource read
 * result's `text`, a turn's `response.text`, or the text blocks of `content`.
 */
export function resolveText(subject: unknown): string | undefined {
  if (typeof subject === 'string') return subject;
  if (!isObject(subject)) return undefined;
  if (typeof subject.text === 'string') return subject.text;
  if ('response' in subject && typeof subject.turnId === 'string') {
    const response = subject.response;
    return isObject(response) && typeof response.text === 'string' ? response.text : '';
  }
  if (Array.isArray(subject.content)) return joinText(subject.content);
  if (Array.isArray(subject.contents)) return joinText(subject.contents);
  return undefined;
}

/** The content blocks of a tool result or a turn's response, or `undefined`. */
export function resolveContent(subject: unknown): readonly unknown[] | undefined {
  if (!isObject(subject)) return undefined;
  if (Array.isArray(subject.content)) return subject.content;
  if ('response' in subject && typeof subject.turnId === 'string') {
    const response = subject.response;
    return isObject(response) && Array.isArray(response.content) ? response.content : [];
  }
  return undefined;
}
