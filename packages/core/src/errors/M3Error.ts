import type { JsonObject } from '../json';

/** Base class of every error sf-m3 throws on purpose; `code` is stable and stored as data. */
export class M3Error extends Error {
  /** Stable machine-readable code, e.g. `transport_error`. */
  readonly code: string;
  /** Bounded, redacted, payload-free facts about the failure. */
  readonly details: JsonObject;

  constructor(code: string, message: string, details: JsonObject = {}, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    this.details = details;
    this.name = new.target.name;
  }
}

/** Local validation failed: bad arguments to our API, or a JSON Schema mismatch. */
export class ModelValidationError extends M3Error {
  constructor(message: string, details: JsonObject = {}) {
    super('invalid_argument', message, details);
  }
}

/** The transport failed during an operation (the connection broke). */
export class TransportError extends M3Error {
  constructor(message: string, details: JsonObject = {}, options?: { cause?: unknown; code?: string }) {
    super(options?.code ?? 'transport_error', message, details, options);
  }
}

/** The stdio child could not start (missing command, bad cwd, unresolvable secret). */
export class TransportStartupError extends TransportError {
  constructor(message: string, details: JsonObject = {}, options?: { cause?: unknown }) {
    super(message, details, { ...options, code: 'transport_startup_error' });
  }
}

/** The HTTP endpoint was unreachable or refused the connection while connecting. */
export class TransportConnectionError extends TransportError {
  constructor(message: string, details: JsonObject = {}, options?: { cause?: unknown }) {
    super(message, details, { ...options, code: 'transport_connection_error' });
  }
}

/** A URL was refused by the endpoint trust rules. */
export class EndpointTrustError extends M3Error {
  constructor(message: string, details: JsonObject = {}) {
    super('endpoint_trust_error', message, details);
  }
}

/** A JSON-RPC error response, a malformed response or a repeated cursor. */
export class ProtocolError extends M3Error {
  constructor(message: string, details: JsonObject = {}, options?: { cause?: unknown; code?: string }) {
    super(options?.code ?? 'protocol_error', message, details, options);
  }
}

/**
 * The server does not offer the protocol revision the connection pinned (contract §23): `details`
 * holds `requested` and `offered` (the revisions the server named; empty when it named none).
 */
export class ProtocolVersionError extends ProtocolError {
  constructor(
    message: string,
    details: JsonObject & { requested: string; offered: string[] },
    options?: { cause?: unknown },
  ) {
    super(message, details, { ...options, code: 'protocol_version_unsupported' });
  }
}

/** An operation passed its `timeoutMs`, or an execution passed its deadline. */
export class OperationTimeout extends M3Error {
  constructor(message: string, details: JsonObject = {}) {
    super('timeout', message, details);
  }
}

/** The client or kit was closed while the operation was in flight. */
export class OperationCancelled extends M3Error {
  constructor(message: string, details: JsonObject = {}) {
    super('cancelled', message, details);
  }
}

/** A kit method was called after `kit.close()`. */
export class KitClosed extends M3Error {
  constructor(message = 'the kit is closed: create a new MCPTestKit for further work', details: JsonObject = {}) {
    super('kit_closed', message, details);
  }
}

/**
 * A direct client property was read before the client reached the state that sets it:
 * `initialization` before `connect()` finished, `result` or `finalTrace` before `close()` finished.
 */
export class ClientNotReady extends M3Error {
  constructor(message: string, details: JsonObject = {}) {
    super('client_not_ready', message, details);
  }
}

/** A trace was projected before its execution finished. */
export class TraceNotFinalized extends M3Error {
  constructor(
    message = 'execution has not been finalized: close the client or session before reading its view',
    details: JsonObject = {},
  ) {
    super('trace_not_finalized', message, details);
  }
}

/** No trace exists for the execution, or the stored trace is malformed. */
export class TraceUnavailable extends M3Error {
  constructor(message: string, details: JsonObject = {}) {
    super('trace_unavailable', message, details);
  }
}

/** A store lookup found no execution with that id. */
export class ExecutionNotFound extends M3Error {
  constructor(executionId: string) {
    super('execution_not_found', `execution not found: ${executionId}`, { executionId });
  }
}

/** The feature is not supported by this runtime, transport or protocol revision. */
export class UnsupportedFeature extends M3Error {
  constructor(message: string, details: JsonObject = {}) {
    super('unsupported', message, details);
  }
}

/** A raw evidence reference is malformed, foreign or unknown. */
export class RawEvidenceUnavailable extends M3Error {
  constructor(message: string, details: JsonObject = {}) {
    super('raw_evidence_unavailable', message, details);
  }
}

/** Stored raw evidence failed its size or sha256 check. */
export class RawEvidenceIntegrityError extends M3Error {
  constructor(message: string, details: JsonObject = {}) {
    super('raw_evidence_integrity_error', message, details);
  }
}

/** The database schema is newer than this code, or otherwise unusable. */
export class StoreSchemaError extends M3Error {
  constructor(message: string, details: JsonObject = {}) {
    super('store_schema_error', message, details);
  }
}

/** A store could not open or write its data (path, permissions, corruption). */
export class StoreError extends M3Error {
  constructor(message: string, details: JsonObject = {}, options?: { cause?: unknown }) {
    super('store_error', message, details, options);
  }
}
