import type { ClientCapabilities } from '@modelcontextprotocol/sdk/types.js';
import { sdkTypes } from './sdkTypes';
import { ModelValidationError } from '../errors';

/** The top-level client capability names MCP (2025-11-25) defines; anything else goes under `experimental`. */
const KNOWN_CAPABILITIES = new Set(['experimental', 'sampling', 'elicitation', 'roots', 'tasks', 'extensions']);

/** What the handlers given to `kit.direct` declare, before explicit `capabilities` (contract §17). */
export interface CapabilityHandlers {
  onElicitation?: unknown;
  onSampling?: unknown;
  onRoots?: unknown;
  capabilities?: ClientCapabilities;
}

/**
 * The capabilities a client declares at `initialize` (contract §17): form elicitation with defaults
 * applied when `onElicitation` is given (the SDK then fills schema defaults the handler left out),
 * `sampling` when `onSampling` is, `roots: { listChanged: true }` when `onRoots` is. Each top-level
 * key of an explicit `capabilities` replaces the default for that key (so `elicitation: { form: {},
 * url: {} }` declares URL mode too); keys it does not name keep their defaults.
 */
export function declaredCapabilities(options: CapabilityHandlers): ClientCapabilities {
  return {
    ...(options.onElicitation !== undefined && { elicitation: { form: { applyDefaults: true } } }),
    ...(options.onSampling !== undefined && { sampling: {} }),
    ...(options.onRoots !== undefined && { roots: { listChanged: true } }),
    ...options.capabilities,
  };
}

/** Checks the `capabilities` option against the SDK's `ClientCapabilities` schema; names the bad key. */
export function checkCapabilities(value: unknown): ClientCapabilities | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ModelValidationError(
      'capabilities must be an object of MCP client capabilities, e.g. { elicitation: { form: {}, url: {} } }',
      { option: 'capabilities' },
    );
  }
  for (const key of Object.keys(value)) {
    if (!KNOWN_CAPABILITIES.has(key)) {
      throw new ModelValidationError(
        `unknown client capability '${key}': use one of ${[...KNOWN_CAPABILITIES].join(', ')} (non-standard ones go under experimental)`,
        { option: 'capabilities', capability: key },
      );
    }
  }
  const parsed = sdkTypes().ClientCapabilitiesSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const path = issue === undefined ? '' : issue.path.map(String).join('.');
    throw new ModelValidationError(
      `capabilities.${path} is not a valid MCP client capability: ${issue?.message ?? 'invalid'}`,
      { option: 'capabilities', path },
    );
  }
  return value as ClientCapabilities;
}
