import type { Redactor } from '../redaction/Redactor';
import type { CassetteExchange, CassetteRequest, CassetteResponse } from './CassetteFormat';
import type { CassetteMode, CassetteUse } from './CassetteMode';

/**
 * What one running test offers the model clients of its kit (contract §24): the kit holds it as
 * `kit.cassettes` (null outside the Jest environment, or when the mode is `off`). Made by the
 * test file's `CassetteBook`; every channel it opens records into and replays from that file.
 */
export interface CassetteScope {
  readonly mode: CassetteMode;
  /** The full test name entries are filed under. */
  readonly testName: string;
  /** The test file's path relative to the project root (for messages: the command that re-records). */
  readonly testPath: string;
  /** `describe.m3(name, { cassettes: { servers: true } })`: the MCP servers' side is recorded too. */
  readonly servers: boolean;
  /**
   * Opens a loopback recording proxy for one model client (one agent execution, one judge): the
   * client is pointed at `channel.baseUrl` instead of `upstream`.
   */
  openChannel(options: CassetteChannelOptions): Promise<CassetteChannel>;
  /** The raw tape of one channel, for traffic that is not HTTP (the MCP servers' side). */
  tape(channel: string): CassetteTape;
}

/** Who a channel serves and where its traffic would go live. */
export interface CassetteChannelOptions {
  /** The channel key inside the test, e.g. `openai gpt-4o-mini trial 2`, `judge gpt-4o-mini`. */
  readonly channel: string;
  /**
   * The endpoint the client would reach without cassettes: absolute URL with the path prefix the
   * client appends to (`https://api.openai.com/v1`, `https://api.anthropic.com`,
   * `http://127.0.0.1:4100/v1`). Requests are forwarded to its origin with their own path.
   */
  readonly upstream: string;
  /**
   * Strings that change from run to run inside request bodies (the agent's temp folders, ports):
   * replaced by stable placeholders before matching and before writing.
   */
  readonly volatileStrings?: readonly string[];
  /** Redacts request and response bodies before they are written or compared (the kit's redactor). */
  readonly redactor: Redactor;
}

/** One model client's recording proxy. */
export interface CassetteChannel {
  /**
   * The loopback URL to give the client in place of `upstream`: same path prefix, e.g.
   * `http://127.0.0.1:PORT/v1` for an upstream `https://api.openai.com/v1`.
   */
  readonly baseUrl: string;
  /**
   * The same proxy as a `fetch` for in-process clients (the `openai` harness, `LLMJudge`): a call
   * to any URL under `upstream` (or `baseUrl`) is answered exactly as the HTTP proxy would.
   */
  readonly fetch: typeof fetch;
  /** How this channel's traffic was served so far; null before any exchange. */
  use(): CassetteUse | null;
  /** Exchanges served from the cassette and recorded live so far. */
  counts(): { readonly replayed: number; readonly recorded: number };
  /**
   * The first request in mode `replay` that had no recorded answer (the client got an HTTP 599 with
   * the error's message), or null. The execution fails with it.
   */
  miss(): Error | null;
  /** Stops the proxy; idempotent. */
  close(): Promise<void>;
}

/**
 * One channel's recorded exchanges inside one test, consumed in order: the n-th identical
 * (normalized) request gets the n-th recorded response.
 */
export interface CassetteTape {
  readonly mode: CassetteMode;
  /** The next unused recorded response for this request, or null; marks it used. */
  take(request: CassetteRequest): CassetteResponse | null;
  /** Adds a live exchange (mode `auto`/`record`); written when the file ends. */
  record(exchange: CassetteExchange): void;
  /** The recorded request closest to `request` (for the miss diff), or null when the channel has none. */
  nearest(request: CassetteRequest): CassetteRequest | null;
}
