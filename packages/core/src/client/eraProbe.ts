import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { M3Error } from '../errors';
import type { JsonObject } from '../json';
import { MODERN_REVISIONS } from '../servers/protocolSetting';

/** The `_meta` keys of the 2026-07-28 per-request envelope (as the SDK v2 names them). */
export const ENVELOPE_KEYS = {
  protocolVersion: 'io.modelcontextprotocol/protocolVersion',
  clientInfo: 'io.modelcontextprotocol/clientInfo',
  clientCapabilities: 'io.modelcontextprotocol/clientCapabilities',
  serverInfo: 'io.modelcontextprotocol/serverInfo',
} as const;

/** What the `server/discover` probe found out about a server. */
export type ProbeVerdict =
  | {
      /** The server speaks the stateless era at `version`; `discover` is its answer. */
      readonly era: 'modern';
      readonly version: string;
      readonly discover: JsonObject;
    }
  | {
      /** The probe could not reach the server at all (refused, redirected, unreachable): connect fails with this. */
      readonly era: 'unreachable';
      readonly error: unknown;
    }
  | {
      /** No modern evidence: the server speaks the 2025 handshake (or nothing we know). */
      readonly era: 'legacy';
      /** Why, in words for a diagnostic or an error message. */
      readonly reason: string;
      /** Modern revisions the server named (from `supportedVersions` or a -32022 error), if any. */
      readonly offered: readonly string[];
      /** The transport ended during the probe: the legacy handshake needs a fresh one. */
      readonly closed: boolean;
    };

/** What the probe needs. */
export interface ProbeOptions {
  /** How long to wait for the answer; silence is a legacy verdict. */
  readonly timeoutMs: number;
  readonly clientInfo: { name: string; version: string };
  readonly capabilities: JsonObject;
}

const PROBE_ID = 'm3-era-probe';
/** The id of the one retry after an unsupported-version answer (a retry MUST use a new id). */
const RETRY_ID = 'm3-era-probe-retry';
/** JSON-RPC error code of `UnsupportedProtocolVersionError` (2026-07-28). */
const UNSUPPORTED_PROTOCOL_VERSION = -32022;

/**
 * The modern revision to retry `server/discover` with when the server rejected the first one as an
 * unsupported protocol version and named, in `data.supported`, a revision the kit speaks
 * (conformance check `sep-2575-client-retry-supported-version`); `undefined` otherwise.
 */
export function retryRevision(message: JSONRPCMessage): string | undefined {
  if (!('error' in message) || message.error.code !== UNSUPPORTED_PROTOCOL_VERSION) return undefined;
  const offered = stringList((message.error.data as { supported?: unknown } | undefined)?.supported);
  return MODERN_REVISIONS.find((revision) => offered.includes(revision));
}

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/** Classifies the probe's answer (a JSON-RPC result or error for the probe id). */
export function classifyProbeAnswer(message: JSONRPCMessage): ProbeVerdict {
  if ('result' in message) {
    const result = message.result as JsonObject;
    const offered = stringList(result.supportedVersions);
    const version = MODERN_REVISIONS.find((revision) => offered.includes(revision));
    if (version !== undefined && typeof result.capabilities === 'object' && result.capabilities !== null) {
      return { era: 'modern', version, discover: result };
    }
    return {
      era: 'legacy',
      reason: `server/discover offered ${offered.length > 0 ? offered.join(', ') : 'no revision'} but no revision this kit speaks (${MODERN_REVISIONS.join(', ')})`,
      offered,
      closed: false,
    };
  }
  if ('error' in message) {
    const { code, message: text, data } = message.error;
    const offered = stringList((data as { supported?: unknown } | undefined)?.supported);
    return {
      era: 'legacy',
      reason: `server/discover returned JSON-RPC error ${code}: ${String(text).slice(0, 200)}`,
      offered,
      closed: false,
    };
  }
  return {
    era: 'legacy',
    reason: 'server/discover got an answer that is neither a result nor an error',
    offered: [],
    closed: false,
  };
}

/** The HTTP status an SDK v2 HTTP error carries (`SdkHttpError`: `data.status`), if any. */
function httpStatusOf(error: unknown): number | undefined {
  const data = (error as { data?: { status?: unknown } } | undefined)?.data;
  const status = data?.status ?? (error as { status?: unknown } | undefined)?.status;
  return typeof status === 'number' && status >= 400 && status < 600 ? status : undefined;
}

/** The kit's own error (e.g. the redirect refusal of its fetch) that the SDK wrapped, if any. */
function ownErrorIn(error: unknown): M3Error | undefined {
  for (let current = error, depth = 0; current instanceof Error && depth < 5; depth++) {
    if (current instanceof M3Error) return current;
    current = current.cause;
  }
  return undefined;
}

/**
 * Asks a started-or-not transport whether its server speaks the stateless era: sends one
 * `server/discover` carrying the 2026-07-28 `_meta` envelope and waits for its answer, in place
 * (no extra connection or process). The transport is started here and left started, with its
 * handlers cleared, for the client that takes it over. An unsupported-protocol-version error
 * (-32022) naming a revision the kit speaks is answered by one retry with that revision and a new
 * id. A result offering a revision the kit speaks is a modern verdict; a JSON-RPC error, silence past `timeoutMs`, an HTTP error status or anything
 * else is a legacy one (a closed transport says so). A probe that cannot reach the server at all
 * (refused, redirected) is `unreachable`: connecting fails with that error, never a fallback.
 */
export async function probeEra(transport: Transport, options: ProbeOptions): Promise<ProbeVerdict> {
  let settle: (verdict: ProbeVerdict) => void = () => undefined;
  const answered = new Promise<ProbeVerdict>((resolve) => {
    settle = resolve;
  });
  const legacy = (reason: string, closed = false): ProbeVerdict => ({ era: 'legacy', reason, offered: [], closed });
  const send = (id: string, revision: string): void => {
    const probe: JSONRPCMessage = {
      jsonrpc: '2.0',
      id,
      method: 'server/discover',
      params: {
        _meta: {
          [ENVELOPE_KEYS.protocolVersion]: revision,
          [ENVELOPE_KEYS.clientInfo]: options.clientInfo,
          [ENVELOPE_KEYS.clientCapabilities]: options.capabilities,
        },
      },
    };
    transport.send(probe).catch((error: unknown) => {
      const status = httpStatusOf(error);
      settle(
        status !== undefined
          ? legacy(`server/discover was answered with HTTP ${status}`)
          : { era: 'unreachable', error: ownErrorIn(error) ?? error },
      );
    });
  };
  let expectedId = PROBE_ID;
  transport.onmessage = (message) => {
    if (!('result' in message || 'error' in message) || (message as { id?: unknown }).id !== expectedId) return;
    const revision = expectedId === PROBE_ID ? retryRevision(message) : undefined;
    if (revision !== undefined) {
      expectedId = RETRY_ID;
      send(RETRY_ID, revision);
      return;
    }
    settle(classifyProbeAnswer(message));
  };
  transport.onclose = () => settle(legacy('the connection closed during the server/discover probe', true));
  transport.onerror = () => undefined;
  const timer = setTimeout(
    () => settle(legacy(`server/discover got no answer within ${options.timeoutMs} ms`)),
    options.timeoutMs,
  );
  try {
    await transport.start();
    send(PROBE_ID, MODERN_REVISIONS[0]!);
    return await answered;
  } finally {
    clearTimeout(timer);
    transport.onmessage = undefined;
    transport.onclose = undefined;
    transport.onerror = undefined;
  }
}
