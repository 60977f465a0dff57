// A tool result as the execution view shows it, the same way on both sides: the wire's
// `{ content, structuredContent: Observation, isError }` and what an agent reported (an MCP-shaped
// object, a list of content blocks, or a plain string) both become their text, their structured
// content and their error flag, without the Observation and content-block wrappers around them.

/** One result, unwrapped. */
export interface UnwrappedResult {
  /** The text of its text blocks (a reported plain string is one text). */
  texts: string[];
  /** Non-text blocks, one line each: `image (image/png, 1204 characters of data)`. */
  others: string[];
  /** Its structured content, when it has any. */
  structured: unknown;
  /** The MCP `isError` flag, or null when the value does not say. */
  isError: boolean | null;
  /** A value of no known shape, shown as JSON. */
  raw: unknown;
}

type Loose = Record<string, unknown>;
const isObject = (v: unknown): v is Loose => typeof v === 'object' && v !== null && !Array.isArray(v);

function observedValue(v: unknown): unknown {
  // An Observation `{ state, value }`: its value when it was observed (or truncated / redacted).
  if (isObject(v) && typeof v.state === 'string' && 'value' in v) return v.value ?? undefined;
  return v;
}

function blockLine(block: Loose): string {
  const type = typeof block.type === 'string' ? block.type : 'block';
  const mime = typeof block.mimeType === 'string' ? block.mimeType : null;
  const data = typeof block.data === 'string' ? `${block.data.length} characters of data` : null;
  const uri =
    typeof block.uri === 'string'
      ? block.uri
      : isObject(block.resource) && typeof block.resource.uri === 'string'
        ? block.resource.uri
        : null;
  const details = [mime, uri, data].filter((d): d is string => d !== null);
  return details.length === 0 ? type : `${type} (${details.join(', ')})`;
}

function fromBlocks(blocks: readonly unknown[], into: UnwrappedResult): void {
  for (const block of blocks) {
    if (isObject(block) && block.type === 'text' && typeof block.text === 'string') into.texts.push(block.text);
    else if (isObject(block) && isObject(block.resource) && typeof block.resource.text === 'string') {
      into.texts.push(block.resource.text);
    } else into.others.push(isObject(block) ? blockLine(block) : JSON.stringify(block));
  }
}

const isBlock = (v: unknown): boolean => isObject(v) && typeof v.type === 'string';

/** Unwraps a wire or reported result value (the Observation around it already opened). */
export function unwrapResult(value: unknown): UnwrappedResult {
  const out: UnwrappedResult = { texts: [], others: [], structured: undefined, isError: null, raw: undefined };
  const v = observedValue(value);
  if (typeof v === 'string') {
    out.texts.push(v);
  } else if (Array.isArray(v) && v.every(isBlock)) {
    fromBlocks(v, out);
  } else if (isObject(v) && (Array.isArray(v.content) || 'structuredContent' in v)) {
    if (Array.isArray(v.content)) fromBlocks(v.content, out);
    out.structured = observedValue(v.structuredContent);
    if (typeof v.isError === 'boolean') out.isError = v.isError;
  } else if (v !== undefined) {
    out.raw = v;
  }
  return out;
}
