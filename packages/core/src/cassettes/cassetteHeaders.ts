/** Request headers a cassette keeps (contract §24): everything else, keys and cookies first, is dropped. */
export const CASSETTE_REQUEST_HEADERS: readonly string[] = Object.freeze([
  'accept',
  'anthropic-beta',
  'anthropic-version',
  'content-type',
  'openai-beta',
]);

/** Response headers a cassette keeps and replays. */
export const CASSETTE_RESPONSE_HEADERS: readonly string[] = Object.freeze(['content-type']);

/** Connection-level headers a proxy never forwards (RFC 9110 §7.6.1), plus `host`, set per hop. */
export const HOP_BY_HOP_HEADERS: ReadonlySet<string> = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'host',
]);

/** Header values as Node and fetch give them, flattened to one string per lower-case name. */
export type HeaderSource = Readonly<Record<string, string | readonly string[] | undefined>> | Headers;

/** Lower-case name → value of the headers in `names` that `source` carries, sorted by name. */
export function pickHeaders(source: HeaderSource, names: readonly string[]): Record<string, string> {
  const flat = flattenHeaders(source);
  const out: Record<string, string> = {};
  for (const name of [...names].sort()) {
    const value = flat[name];
    if (value !== undefined) out[name] = value;
  }
  return out;
}

/** Every header of `source` as lower-case name → one string (repeated values joined with `, `). */
export function flattenHeaders(source: HeaderSource): Record<string, string> {
  const out: Record<string, string> = {};
  if (typeof Headers !== 'undefined' && source instanceof Headers) {
    source.forEach((value, name) => {
      out[name.toLowerCase()] = value;
    });
    return out;
  }
  for (const [name, value] of Object.entries(source as Record<string, string | readonly string[] | undefined>)) {
    if (value === undefined) continue;
    out[name.toLowerCase()] = typeof value === 'string' ? value : value.join(', ');
  }
  return out;
}
