/**
 * Text that changes from run to run inside a model request whatever the client (contract §24):
 * replaced by a stable placeholder before matching and writing, so a cassette recorded one day
 * replays the next. The CLIs put today's date in their system prompts, and Codex its measured
 * wall time in each tool output. A prompt that differs only in such a date matches too.
 */
const VOLATILE_TEXT: ReadonlyArray<readonly [RegExp, string]> = [
  [/\b\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?/g, '<timestamp>'],
  [/\b\d{4}-\d{2}-\d{2}\b/g, '<date>'],
  [
    /\b(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)[a-z]*,? (?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]* \d{1,2},? \d{4}\b/g,
    '<date>',
  ],
  [/\d{1,2}\/\d{1,2}\/\d{4}\b/g, '<date>'],
  [/\bWall time: \d+(?:\.\d+)? seconds\b/g, 'Wall time: <duration> seconds'],
];

/** `text` with dates, timestamps and measured durations replaced by placeholders. */
export function hideVolatileText(text: string): string {
  let out = text;
  for (const [pattern, placeholder] of VOLATILE_TEXT) out = out.replace(pattern, placeholder);
  return out;
}

const GENERATED_ID =
  /^(?:(?:msg|rs|fc|fco|ctc|cu|ws|mcp|item)_[A-Za-z0-9-]{8,}|(?:[a-z]{1,10}_)?[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;

/**
 * True for an `id` a client mints for its own request items (Codex gives every Responses input
 * item a fresh `msg_<uuid>`, every tool output an `fco_<uuid>`): dropped before matching. Ids the model gave (`call_…`) are kept: a
 * replayed answer gives them back unchanged.
 */
export function isClientMintedId(value: unknown): boolean {
  return typeof value === 'string' && GENERATED_ID.test(value);
}
