import type {
  ClientCapabilities,
  CreateMessageRequestParams,
  CreateMessageResult,
  ElicitRequestParams,
  ElicitResult,
  LoggingMessageNotificationParams,
  Progress,
  Root,
} from '@modelcontextprotocol/sdk/types.js';
import { ModelValidationError } from '../errors';
import { validateProtocolSetting, type ProtocolSetting } from '../servers/protocolSetting';
import type { SecretRef } from '../redaction/SecretRef';
import { checkCapabilities } from './clientCapabilities';

/** What an elicitation callback receives beside the request: an abort signal for the request. */
export interface ServerRequestContext {
  /** Aborted when the server cancels the request or the client closes. */
  readonly signal: AbortSignal;
}

/** Answers a server's `elicitation/create` request. */
export type ElicitationCallback = (
  params: ElicitRequestParams,
  context: ServerRequestContext,
) => ElicitResult | Promise<ElicitResult>;

/** Answers a server's `sampling/createMessage` request. */
export type SamplingCallback = (
  params: CreateMessageRequestParams,
  context: ServerRequestContext,
) => CreateMessageResult | Promise<CreateMessageResult>;

/** Answers a server's `roots/list` request with the client's roots. */
export type RootsCallback = (context: ServerRequestContext) => Root[] | Promise<Root[]>;

/** Receives the server's `notifications/message` log messages. */
export type LogMessageCallback = (params: LoggingMessageNotificationParams) => void;

/** Receives `notifications/progress` for one `callTool`. */
export type ProgressCallback = (progress: Progress) => void;

/** Options of `kit.direct(server, options)` (contract §3). */
export interface DirectClientOptions {
  /** Per-operation timeout in ms (default 30 000); `callTool` can override it per call. */
  timeoutMs?: number;
  /** Validate tool arguments and structured results against the tool's JSON Schemas (default false). */
  validateSchemas?: boolean;
  /** MCP protocol revision to request at `initialize` (default: the SDK's latest). */
  protocolVersion?: string;
  /**
   * How the connection picks its protocol era (contract §23): `'auto'`, `'legacy'` or a revision to
   * pin. Overrides the server definition's `protocol` (whose default is `'auto'`).
   */
  protocol?: ProtocolSetting;
  /**
   * At most this many `input_required` rounds per `callTool`/`getPrompt`/`readResource` on a
   * 2026-07-28 connection (default 10); past it the call fails with `ProtocolError`
   * `input_rounds_exceeded`.
   */
  maxInputRounds?: number;
  /** Bearer token for HTTP servers; redacted everywhere. */
  bearerToken?: string | SecretRef;
  /**
   * What the client declares at `initialize`. Defaults come from the callbacks given (see
   * `onElicitation`, `onSampling`, `onRoots`); each top-level key given here replaces that default,
   * e.g. `{ elicitation: { form: { applyDefaults: true }, url: {} } }` declares URL-mode elicitation.
   */
  capabilities?: ClientCapabilities;
  /**
   * Answers `elicitation/create`; declares `elicitation: { form: { applyDefaults: true } }`, so the
   * schema defaults of fields the callback left out are filled in before the answer is sent.
   */
  onElicitation?: ElicitationCallback;
  /** Declares the sampling capability and answers `sampling/createMessage`. */
  onSampling?: SamplingCallback;
  /** Declares the roots capability (with `listChanged`) and answers `roots/list`. */
  onRoots?: RootsCallback;
  /** Receives server log messages (`notifications/message`). */
  onLogMessage?: LogMessageCallback;
}

/** Options of one `callTool`. */
export interface CallToolOptions {
  /** Overrides the client's `timeoutMs` for this call. */
  timeoutMs?: number;
  /** Receives progress notifications for this call. */
  onProgress?: ProgressCallback;
}

/** The default per-operation timeout (contract §3). */
export const DEFAULT_TIMEOUT_MS = 30_000;

const CALLBACKS = ['onElicitation', 'onSampling', 'onRoots', 'onLogMessage'] as const;
const KNOWN = new Set<string>([
  'timeoutMs',
  'validateSchemas',
  'protocolVersion',
  'protocol',
  'maxInputRounds',
  'bearerToken',
  'capabilities',
  ...CALLBACKS,
]);

/** Checks a timeout option: a finite number of milliseconds above zero. */
export function checkTimeoutMs(value: unknown, name = 'timeoutMs'): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    throw new ModelValidationError(`${name} must be a finite number of milliseconds above 0, e.g. 5000`, {
      option: name,
    });
  }
  return value;
}

/** Validates `kit.direct` options; throws `ModelValidationError` naming the bad option. */
export function validateDirectClientOptions(options: DirectClientOptions | undefined): DirectClientOptions {
  if (options === undefined) return {};
  if (typeof options !== 'object' || options === null) {
    throw new ModelValidationError('kit.direct options must be an object such as { timeoutMs: 5000 }');
  }
  for (const key of Object.keys(options)) {
    if (!KNOWN.has(key)) {
      throw new ModelValidationError(`unknown kit.direct option '${key}': use one of ${[...KNOWN].join(', ')}`, {
        option: key,
      });
    }
  }
  checkTimeoutMs(options.timeoutMs);
  if (options.validateSchemas !== undefined && typeof options.validateSchemas !== 'boolean') {
    throw new ModelValidationError('validateSchemas must be true or false', { option: 'validateSchemas' });
  }
  if (
    options.protocolVersion !== undefined &&
    (typeof options.protocolVersion !== 'string' || options.protocolVersion.trim() === '')
  ) {
    throw new ModelValidationError("protocolVersion must be an MCP revision string such as '2025-06-18'", {
      option: 'protocolVersion',
    });
  }
  validateProtocolSetting(options.protocol, 'kit.direct');
  if (
    options.maxInputRounds !== undefined &&
    (typeof options.maxInputRounds !== 'number' ||
      !Number.isInteger(options.maxInputRounds) ||
      options.maxInputRounds < 1)
  ) {
    throw new ModelValidationError('maxInputRounds must be a whole number of rounds, at least 1, e.g. 10', {
      option: 'maxInputRounds',
    });
  }
  for (const name of CALLBACKS) {
    if (options[name] !== undefined && typeof options[name] !== 'function') {
      throw new ModelValidationError(`${name} must be a function`, { option: name });
    }
  }
  checkCapabilities(options.capabilities);
  return options;
}
