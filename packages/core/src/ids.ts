import { randomBytes } from 'node:crypto';

/** Prefixes of every id sf-m3 mints. */
export type IdPrefix = 'run' | 'exec' | 'trace' | 'eval' | 'attempt' | 'turn' | 'session' | 'conn' | 'call';

/** A new random id: `<prefix>-<32 lowercase hex>`. */
export function newId(prefix: IdPrefix): string {
  return `${prefix}-${randomBytes(16).toString('hex')}`;
}

const ID_PATTERN = /^(run|exec|trace|eval|attempt|turn|session|conn|call)-[0-9a-f]{32}$/;

/** True when `value` has the shape of an id minted by `newId`. */
export function isM3Id(value: unknown, prefix?: IdPrefix): value is string {
  if (typeof value !== 'string' || !ID_PATTERN.test(value)) return false;
  return prefix === undefined || value.startsWith(`${prefix}-`);
}
