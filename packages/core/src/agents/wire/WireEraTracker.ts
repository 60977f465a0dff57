import type { JsonObject, JsonValue } from '../../json';
import type { DiagnosticPayload, InitializedPayload } from '../../trace/payloads';

/** The `_meta` key of the 2026-07-28 per-request envelope naming the revision (as the SDK v2 names it). */
const PROTOCOL_VERSION_KEY = 'io.modelcontextprotocol/protocolVersion';
/** Where a 2026-07-28 server puts its identity on a result. */
const SERVER_INFO_KEY = 'io.modelcontextprotocol/serverInfo';
/** JSON-RPC error code of an unsupported protocol version (2026-07-28). */
const UNSUPPORTED_PROTOCOL_VERSION = -32022;

/** One message the writer recorded, as the tracker needs it. */
export interface EraObservation {
  /** The event kind the message became (`mcp.request`, `mcp.response`, `mcp.error`, ...). */
  readonly kind: string;
  readonly direction: string;
  /** The method of a request, or of the request a response answers (when known). */
  readonly method: string | undefined;
  /** The message as recorded (already redacted). */
  readonly message: unknown;
}

/** What the tracker learnt from one message. */
export interface EraFinding {
  /** The era and revision the agent and the server settled on: an `mcp.initialized` payload. */
  readonly initialized?: InitializedPayload;
  /** An agent that speaks only 2025 met a server that serves only 2026-07-28. */
  readonly mismatch?: DiagnosticPayload & JsonObject;
}

const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const stringsOf = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];

/**
 * Follows which protocol era an agent speaks with one server, from the messages a capture proxy
 * sees (contract §23): a 2025 `initialize` answered (legacy, the revision the server chose), or
 * 2026-07-28 requests carrying the `_meta` envelope answered (modern, the envelope's revision;
 * `server/discover` supplies the server's identity and capabilities). Reported once per era and
 * revision. An `initialize` refused with -32022 is the agent's 2025-only client meeting a
 * modern-only server, reported as an `era_mismatch` diagnostic that says so.
 */
export class WireEraTracker {
  private requestedLegacy: string | undefined;
  /** The envelope revision of each 2026-07-28 request not answered yet, by JSON-RPC id. */
  private readonly modernRequests = new Map<string, string>();
  private reported: string | undefined;

  constructor(private readonly server: string) {}

  observe(seen: EraObservation): EraFinding {
    const m = seen.message;
    if (!isObject(m)) return {};
    if (seen.direction === 'client_to_server' && typeof m.method === 'string') {
      const params = isObject(m.params) ? m.params : {};
      if (m.method === 'initialize') {
        if (typeof params.protocolVersion === 'string') this.requestedLegacy = params.protocolVersion;
      } else {
        const meta = isObject(params._meta) ? params._meta : {};
        const version = meta[PROTOCOL_VERSION_KEY];
        if (typeof version === 'string' && 'id' in m) this.modernRequests.set(JSON.stringify(m.id), version);
      }
      return {};
    }
    if (seen.direction !== 'server_to_client') return {};
    const idKey = JSON.stringify(m.id ?? null);
    const modernVersion = this.modernRequests.get(idKey);
    if (modernVersion !== undefined && !('method' in m)) this.modernRequests.delete(idKey);
    if (seen.kind === 'mcp.error' && seen.method === 'initialize') return this.refusedHandshake(m.error);
    if (!isObject(m.result) || seen.kind === 'mcp.error') return {};
    if (seen.method === 'initialize') return this.legacy(m.result);
    if (modernVersion !== undefined) return this.modern(modernVersion, m.result, seen.method === 'server/discover');
    return {};
  }

  private legacy(result: JsonObject): EraFinding {
    if (typeof result.protocolVersion !== 'string') return {};
    return this.report({
      protocolVersion: result.protocolVersion,
      era: 'legacy',
      serverInfo: isObject(result.serverInfo) ? result.serverInfo : {},
      capabilities: isObject(result.capabilities) ? result.capabilities : {},
      instructions: typeof result.instructions === 'string' ? result.instructions : null,
    });
  }

  /** `server/discover` answers with the server's identity; any other answered modern request only with the era. */
  private modern(version: string, result: JsonObject, discover: boolean): EraFinding {
    const meta = isObject(result._meta) ? result._meta : {};
    const info = isObject(result.serverInfo)
      ? result.serverInfo
      : isObject(meta[SERVER_INFO_KEY])
        ? meta[SERVER_INFO_KEY]
        : {};
    return this.report({
      protocolVersion: version,
      era: 'modern',
      serverInfo: discover ? (info as JsonObject) : {},
      capabilities: discover && isObject(result.capabilities) ? result.capabilities : {},
      instructions: discover && typeof result.instructions === 'string' ? result.instructions : null,
    });
  }

  private report(initialized: InitializedPayload): EraFinding {
    const key = `${initialized.era}|${initialized.protocolVersion}`;
    if (this.reported === key) return {};
    this.reported = key;
    return { initialized };
  }

  private refusedHandshake(error: JsonValue | undefined): EraFinding {
    if (!isObject(error) || error.code !== UNSUPPORTED_PROTOCOL_VERSION) return {};
    const supported = stringsOf(isObject(error.data) ? error.data.supported : undefined);
    const offered = supported.length > 0 ? supported.join(', ') : '2026-07-28';
    const asked = this.requestedLegacy ?? 'a 2025 revision';
    return {
      mismatch: {
        code: 'era_mismatch',
        message:
          `the agent's MCP client speaks only the 2025 protocol (its initialize asked for ${asked}), but MCP server ` +
          `${this.server} serves only ${offered} (the stateless 2026-07-28 era, no initialize handshake) and refused it ` +
          `with -32022: use an agent whose MCP client speaks 2026-07-28, or serve the 2025 era too ` +
          `(SDK v2: legacy 'serve' over stdio, 'stateless' over HTTP, instead of 'reject')`,
        requestedProtocolVersion: asked,
        offeredProtocolVersions: supported,
      },
    };
  }
}
