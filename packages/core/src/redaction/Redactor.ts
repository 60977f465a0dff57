import type { JsonValue } from '../json';

/** The text every secret is replaced with. */
export const REDACTED = '[REDACTED]';

/** Env and header names whose values become redaction canaries. */
const SENSITIVE_NAME = /KEY|TOKEN|SECRET|PASSWORD|AUTHORIZATION|COOKIE|CREDENTIAL/i;
/** Credential-like query parameters in URLs. */
export const CREDENTIAL_QUERY_PARAMS = new Set([
  'token',
  'key',
  'api_key',
  'apikey',
  'access_token',
  'refresh_token',
  'id_token',
  'password',
  'passwd',
  'secret',
  'client_secret',
  'sig',
  'signature',
  'auth',
  'authorization',
  'x-api-key',
  'code',
]);
const BEARER = /\b(Bearer|Basic)(\s+)([A-Za-z0-9._~+/=-]+)/gi;
/** Cheap pre-check before running `BEARER`. */
const SCHEME_HINT = /earer|asic/i;
/**
 * What follows a scheme name without being a token: under 4 characters, one plain word (`basic
 * adds`, `Bearer authentication`) or a short number. Tokens have digits, mixed case or punctuation.
 */
const NOT_A_TOKEN = /^(?:.{0,3}|[A-Za-z][a-z]{0,15}|[0-9]{1,7})$/;

/** `Bearer x` / `Basic x` with the token replaced, unless x is a word rather than a credential. */
function redactSchemeToken(whole: string, scheme: string, space: string, token: string): string {
  return NOT_A_TOKEN.test(token) ? whole : `${scheme}${space}${REDACTED}`;
}
const URL_USERINFO = /(\b[a-z][a-z0-9+.-]*:\/\/)[^\s/@:]+:[^\s/@]+@/gi;

/**
 * JSON keys whose values are credentials wherever they appear in a payload, compared without case,
 * `-` or `_`. Deliberately narrower than `isSensitiveName`: MCP traffic is full of keys such as
 * `progressToken`, `maxTokens` or `key` that hold ordinary data a test must be able to assert on.
 */
const CREDENTIAL_KEYS = new Set([
  'authorization',
  'proxyauthorization',
  'cookie',
  'setcookie',
  'password',
  'passwd',
  'secret',
  'clientsecret',
  'apikey',
  'xapikey',
  'token',
  'accesstoken',
  'refreshtoken',
  'idtoken',
  'authtoken',
  'bearertoken',
  'sessiontoken',
  'privatekey',
]);

/** True when a header or env name marks its value as a secret (contract §2: KEY, TOKEN, SECRET, PASSWORD...). */
export function isSensitiveName(name: string): boolean {
  return SENSITIVE_NAME.test(name);
}

/** Verdicts of `isCredentialKey` by key: payload keys repeat on every message of a connection. */
const credentialKeyCache = new Map<string, boolean>();
/** Keys remembered at most; the cache starts over past this (keys chosen by a server are unbounded). */
const CREDENTIAL_KEY_CACHE_SIZE = 4096;
/** Longer keys are checked without the cache, so it never holds large strings. */
const CREDENTIAL_KEY_CACHED_LENGTH = 64;

/** True when a JSON key names a credential, so its string or number value is redacted structurally. */
export function isCredentialKey(name: string): boolean {
  if (name.length > CREDENTIAL_KEY_CACHED_LENGTH) return CREDENTIAL_KEYS.has(name.replace(/[-_]/g, '').toLowerCase());
  let verdict = credentialKeyCache.get(name);
  if (verdict === undefined) {
    verdict = CREDENTIAL_KEYS.has(name.replace(/[-_]/g, '').toLowerCase());
    if (credentialKeyCache.size >= CREDENTIAL_KEY_CACHE_SIZE) credentialKeyCache.clear();
    credentialKeyCache.set(name, verdict);
  }
  return verdict;
}

/**
 * Replaces secrets with `[REDACTED]`: registered canary values (longest first), bearer/basic
 * tokens (not a plain word: `basic adds` stays), URL credentials, and values
 * under credential JSON keys. Redaction runs before bounding.
 */
export class Redactor {
  private readonly canaries = new Set<string>();
  private sorted: string[] = [];

  constructor(canaries: Iterable<string> = []) {
    for (const c of canaries) this.addCanary(c);
  }

  /** Registers a secret value; values shorter than 4 characters are ignored (they would redact noise). */
  addCanary(value: string | undefined | null): void {
    if (typeof value !== 'string' || value.length < 4 || this.canaries.has(value)) return;
    this.canaries.add(value);
    this.sorted = [...this.canaries].sort((a, b) => b.length - a.length);
  }

  /** A redactor holding this one's canaries and more; this one is not changed. */
  extend(canaries: Iterable<string>): Redactor {
    const next = new Redactor(this.canaries);
    for (const c of canaries) next.addCanary(c);
    return next;
  }

  /**
   * The registered secret values, e.g. to hand a capture proxy that redacts in another process
   * (through its one-shot 0600 config file only). Never log or store the result.
   */
  canaryValues(): string[] {
    return [...this.canaries];
  }

  /** Number of canaries registered. */
  get size(): number {
    return this.canaries.size;
  }

  /** Redacts a string. */
  redactText(text: string): string {
    let out = text;
    for (const canary of this.sorted) {
      if (out.includes(canary)) out = out.split(canary).join(REDACTED);
    }
    if (SCHEME_HINT.test(out)) out = out.replace(BEARER, redactSchemeToken);
    if (out.includes('@')) out = out.replace(URL_USERINFO, `$1${REDACTED}@`);
    return out;
  }

  /** True when the text still contains a registered canary (used by tests and guards). */
  containsSecret(text: string): boolean {
    return this.sorted.some((c) => text.includes(c));
  }

  /** Redacts a JSON-like value structurally: credential keys, then every string. */
  redactJson<T>(value: T): T {
    return this.walk(value as unknown, 0) as T;
  }

  private walk(value: unknown, depth: number): unknown {
    if (typeof value === 'string') return this.redactText(value);
    if (value === null || typeof value !== 'object') return value;
    if (depth > 64) return REDACTED;
    if (Array.isArray(value)) return value.map((v) => this.walk(v, depth + 1));
    if (Buffer.isBuffer(value)) return value;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      out[k] =
        isCredentialKey(k) && (typeof v === 'string' || typeof v === 'number') ? REDACTED : this.walk(v, depth + 1);
    }
    return out;
  }
}

/** Deep-clones a JSON-compatible value, dropping undefined, functions and cycles. */
export function toJsonValue(value: unknown): JsonValue {
  const seen = new WeakSet<object>();
  return JSON.parse(
    JSON.stringify(value, (_key, v: unknown) => {
      if (typeof v === 'bigint') return v.toString();
      if (typeof v === 'object' && v !== null) {
        if (seen.has(v)) return '[Circular]';
        seen.add(v);
      }
      return v;
    }) ?? 'null',
  ) as JsonValue;
}
