/** The subjects text matchers accept, named for usage errors. */
export const TEXT_SUBJECTS =
  'a string, a tool result, a resource read result, a TurnResult or the ExecutionResult of a direct spec';

type Bag = Record<string, unknown>;
const isObject = (value: unknown): value is Bag => typeof value === 'object' && value !== null;

/** Joins the `text` of every text block, with no separator (upstream semantics). */
export function joinText(blocks: readonly unknown[]): string {
  return blocks.map((block) => (isObject(block) && typeof block.text === 'string' ? block.text : '')).join('');
}

/**
 * The one-shot operation result inside an `ExecutionResult` of a direct spec
 * (`kit.run(new CallTool(...)).directResult`), so such results can be asserted on directly.
 */
export function unwrapDirectResult(subject: unknown): unknown {
  if (!isObject(subject) || !isObject(subject.snapshot) || !Array.isArray(subject.turns)) return subject;
  return isObject(subject.directResult) ? subject.directResult : subject;
}

/**
 * The joined text of a subject, or `undefined` when it has none: a string itself, a resource read
 * result's `text`, a turn's `response.text`, or the text blocks of `content`.
 */
export function resolveText(input: unknown): string | undefined {
  const subject = unwrapDirectResult(input);
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
export function resolveContent(input: unknown): readonly unknown[] | undefined {
  const subject = unwrapDirectResult(input);
  if (!isObject(subject)) return undefined;
  if (Array.isArray(subject.content)) return subject.content;
  if ('response' in subject && typeof subject.turnId === 'string') {
    const response = subject.response;
    return isObject(response) && Array.isArray(response.content) ? response.content : [];
  }
  return undefined;
}
