import { ModelValidationError } from '../../errors';
import type { CassetteMode } from '../CassetteMode';
import { parseCassetteMode } from './parseCassetteMode';

/** `describe.m3(name, { cassettes: { servers, mode } }, fn)` (contract §24). */
export interface CassetteSuiteOptions {
  /** Record the MCP servers' side of the suite's agent executions too, so a replay needs no server. */
  readonly servers?: boolean;
  /** The suite's mode, below `--cassettes` / `M3_CASSETTES` and above the project's option. */
  readonly mode?: CassetteMode;
}

const KNOWN_KEYS = ['servers', 'mode'];

/** Checks a suite's `cassettes` option: an object with only `servers` (boolean) and `mode` (a mode). */
export function parseCassetteSuiteOptions(suiteName: string, value: unknown): CassetteSuiteOptions {
  const where = `describe.m3('${suiteName}', { cassettes }, fn)`;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ModelValidationError(
      `${where}: cassettes must be an object like { servers: true } or { mode: 'replay' }`,
    );
  }
  const unknown = Object.keys(value).filter((key) => !KNOWN_KEYS.includes(key));
  if (unknown.length > 0) {
    throw new ModelValidationError(`${where}: unknown cassettes option ${unknown.join(', ')}; use servers or mode`, {
      unknown,
    });
  }
  const { servers, mode } = value as Record<string, unknown>;
  if (servers !== undefined && typeof servers !== 'boolean') {
    throw new ModelValidationError(`${where}: cassettes.servers must be true or false`);
  }
  return {
    ...(servers !== undefined && { servers }),
    ...(mode !== undefined && { mode: parseCassetteMode(mode, `${where}: cassettes.mode`) }),
  };
}
