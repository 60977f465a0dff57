import { ModelValidationError } from '../errors';

/** The MCP revisions the kit can pin a connection to (contract §23). */
export const PINNABLE_REVISIONS = ['2026-07-28', '2025-11-25', '2025-06-18'] as const;

/** A pinnable MCP revision. */
export type ProtocolRevision = (typeof PINNABLE_REVISIONS)[number];

/**
 * How a connection picks its protocol era (contract §23): `'auto'` (the default) takes the newest
 * revision both sides support, `'legacy'` runs only the 2025 `initialize` handshake, and a revision
 * string pins that revision (a server that does not offer it fails `connect()`).
 */
export type ProtocolSetting = 'auto' | 'legacy' | ProtocolRevision;

/** Every accepted `protocol` value. */
export const PROTOCOL_SETTINGS: readonly ProtocolSetting[] = ['auto', 'legacy', ...PINNABLE_REVISIONS];

/** The revisions of the stateless 2026 era (reached through `server/discover`). */
export const MODERN_REVISIONS: readonly string[] = ['2026-07-28'];

/** True for a revision of the stateless era (2026-07-28 and later). */
export function isModernRevision(revision: string): boolean {
  return MODERN_REVISIONS.includes(revision);
}

/**
 * Checks a `protocol` option and returns it (or `undefined` when absent); `where` names the
 * definition or call in the error, e.g. `StdioServer math`.
 * @throws ModelValidationError naming the accepted values
 */
export function validateProtocolSetting(value: unknown, where: string): ProtocolSetting | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'string' && (PROTOCOL_SETTINGS as readonly string[]).includes(value)) {
    return value as ProtocolSetting;
  }
  throw new ModelValidationError(
    `${where} protocol must be one of ${PROTOCOL_SETTINGS.map((s) => `'${s}'`).join(', ')}, got ${JSON.stringify(value)}: ` +
      "use 'auto' to take the newest revision the server offers",
    { option: 'protocol' },
  );
}
