import type { JsonValue } from '../json';

/** The version of the cassette file layout; a file with another version is refused with a clear error. */
export const CASSETTE_SCHEMA_VERSION = 1;

/**
 * One cassette file, `__cassettes__/<test file name>.cassette.json` beside its test file (contract
 * §24). Written pretty-printed with stable key order (tests, then channels, sorted), so a review
 * shows the diff.
 */
export interface CassetteFileContent {
  readonly schemaVersion: typeof CASSETTE_SCHEMA_VERSION;
  /** Per full test name (Jest's `describe › test` name, joined with ' '). */
  readonly tests: Readonly<Record<string, CassetteTestEntry>>;
}

/** One test's recorded traffic, per channel. */
export interface CassetteTestEntry {
  /**
   * Per channel: who talked and in which trial, e.g. `openai gpt-4o-mini trial 2`,
   * `claude_code sonnet trial 1`, `judge gpt-4o-mini`, `mcp shipping trial 1` (see `CassetteChannelKey`).
   */
  readonly channels: Readonly<Record<string, readonly CassetteExchange[]>>;
}

/** One request and its response, in the order the client sent them. */
export interface CassetteExchange {
  readonly request: CassetteRequest;
  readonly response: CassetteResponse;
}

/** A request as matched: normalized, redacted, allowlisted headers only. */
export interface CassetteRequest {
  readonly method: string;
  /** Path and query below the channel's base URL's origin, e.g. `/v1/chat/completions`. */
  readonly path: string;
  /** Only allowlisted headers (content type, accept, API version headers), lower-case names. */
  readonly headers: Readonly<Record<string, string>>;
  /** Normalized JSON body (volatile fields removed, keys sorted), raw text, or null for no body. */
  readonly body: JsonValue | null;
}

/** A response as replayed. */
export interface CassetteResponse {
  readonly status: number;
  /** Only allowlisted headers (content type and the like), lower-case names. */
  readonly headers: Readonly<Record<string, string>>;
  /** JSON body, text body, or null; absent when the response was a stream (see `events`). */
  readonly body?: JsonValue | null;
  /**
   * A streamed (SSE) response: its events in order, each the raw text of one event block without
   * the blank line that ends it (`event: x\ndata: {...}`). Replayed as the same stream.
   */
  readonly events?: readonly string[];
}
