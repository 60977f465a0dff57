import type { JsonValue } from '../json';
import { CREDENTIAL_QUERY_PARAMS, REDACTED, type Redactor } from '../redaction/Redactor';
import type { CassetteRequest } from './CassetteFormat';
import { CASSETTE_REQUEST_HEADERS, pickHeaders, type HeaderSource } from './cassetteHeaders';
import { VolatileStrings } from './VolatileStrings';
import { hideVolatileText, isClientMintedId } from './volatileText';

/**
 * Body fields that change from call to call without changing the question (contract §24): removed
 * at any depth before matching and writing.
 */
export const VOLATILE_BODY_FIELDS: ReadonlySet<string> = new Set([
  'user',
  'metadata',
  'prompt_cache_key',
  'session_id',
  'safety_identifier',
  'store',
  'stream_options',
  'service_tier',
  'client_metadata',
  'request_id',
  'idempotency_key',
  'timestamp',
  'created',
]);

/** A request as it arrived at a channel, before normalization. */
export interface RawCassetteRequest {
  readonly method: string;
  /** Path and query, e.g. `/v1/chat/completions?x=1`. */
  readonly path: string;
  readonly headers: HeaderSource;
  /** The body bytes or text; empty or null for none. */
  readonly body: string | Uint8Array | null;
}

/** What normalization needs from the channel: its volatile strings and the kit's redactor. */
export interface CassetteNormalization {
  readonly volatile: VolatileStrings;
  readonly redactor: Redactor;
}

/**
 * The request as a cassette matches and stores it (contract §24): upper-case method; the path with
 * its query (credential parameters redacted); allowlisted headers only; a JSON body with volatile
 * fields removed at any depth, keys sorted, volatile strings replaced by placeholders, then redacted;
 * a text body with volatile strings replaced, then redacted; null for no body. Dates, timestamps and
 * measured durations in any string (`volatileText.ts`) and ids a client mints for its own request
 * items are hidden too. `accept: *\/*` is
 * dropped (no preference: some HTTP stacks add it, others do not).
 */
export function normalizeCassetteRequest(
  raw: RawCassetteRequest,
  options: { readonly volatileStrings?: readonly string[]; readonly redactor: Redactor } | CassetteNormalization,
): CassetteRequest {
  const volatile = 'volatile' in options ? options.volatile : new VolatileStrings(options.volatileStrings);
  const { redactor } = options;
  const headers = pickHeaders(raw.headers, CASSETTE_REQUEST_HEADERS);
  // `accept: */*` states no preference: some transports add it, others leave it out
  if (headers.accept === '*/*') delete headers.accept;
  for (const name of Object.keys(headers)) headers[name] = redactor.redactText(headers[name]!);
  return {
    method: raw.method.toUpperCase(),
    path: redactor.redactText(volatile.hide(redactQuery(raw.path))),
    headers,
    body: normalizeBody(raw.body, volatile, redactor),
  };
}

function normalizeBody(body: string | Uint8Array | null, volatile: VolatileStrings, redactor: Redactor): JsonValue {
  if (body === null || body.length === 0) return null;
  const text = typeof body === 'string' ? body : Buffer.from(body).toString('utf8');
  const parsed = parseJson(text);
  if (parsed === undefined) return redactor.redactText(hideVolatileText(volatile.hide(text)));
  return redactor.redactJson(cleanJson(parsed, volatile, 0));
}

/** The JSON value of `text`, or undefined when it is not JSON (an object or array). */
function parseJson(text: string): JsonValue | undefined {
  const start = text.trimStart()[0];
  if (start !== '{' && start !== '[') return undefined;
  try {
    return JSON.parse(text) as JsonValue;
  } catch {
    return undefined;
  }
}

/** Volatile fields dropped, keys sorted, volatile strings hidden, at every depth. */
function cleanJson(value: JsonValue, volatile: VolatileStrings, depth: number): JsonValue {
  if (typeof value === 'string') return hideVolatileText(volatile.empty ? value : volatile.hide(value));
  if (value === null || typeof value !== 'object' || depth > 200) return value;
  if (Array.isArray(value)) return value.map((item) => cleanJson(item, volatile, depth + 1));
  const out: { [key: string]: JsonValue } = {};
  for (const key of Object.keys(value).sort()) {
    if (VOLATILE_BODY_FIELDS.has(key)) continue;
    if (key === 'id' && isClientMintedId(value[key])) continue;
    out[key] = cleanJson(value[key]!, volatile, depth + 1);
  }
  return out;
}

/** The path with the values of credential query parameters (`key=`, `api_key=`…) redacted. */
function redactQuery(path: string): string {
  const q = path.indexOf('?');
  if (q < 0) return path;
  const query = path
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = decodeSafely(eq < 0 ? pair : pair.slice(0, eq)).toLowerCase();
      return eq >= 0 && CREDENTIAL_QUERY_PARAMS.has(name) ? `${pair.slice(0, eq)}=${REDACTED}` : pair;
    })
    .join('&');
  return `${path.slice(0, q)}?${query}`;
}

function decodeSafely(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
