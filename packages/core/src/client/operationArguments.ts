import type { LoggingLevel } from '@modelcontextprotocol/sdk/types.js';
import { ModelValidationError } from '../errors';

/** The eight MCP logging levels `logging/setLevel` accepts. */
const LOGGING_LEVELS: ReadonlySet<string> = new Set([
  'debug',
  'info',
  'notice',
  'warning',
  'error',
  'critical',
  'alert',
  'emergency',
]);

/** Throws `ModelValidationError` unless `value` is a non-empty string (`what` names the argument). */
export function requireString(value: unknown, what: string): void {
  if (typeof value !== 'string' || value.length === 0) {
    throw new ModelValidationError(`${what} must be a non-empty string`);
  }
}

/** The `params` of a list request: `{ cursor }` when one is given (checked), else none. */
export function cursorParams(cursor: string | undefined): { cursor: string } | undefined {
  if (cursor === undefined) return undefined;
  requireString(cursor, 'cursor');
  return { cursor };
}

/** Throws `ModelValidationError` unless `level` is one of the eight MCP logging levels. */
export function checkLoggingLevel(level: LoggingLevel): void {
  if (typeof level !== 'string' || !LOGGING_LEVELS.has(level)) {
    throw new ModelValidationError(`unsupported logging level: use one of ${[...LOGGING_LEVELS].join(', ')}`, {
      operation: 'logging/setLevel',
    });
  }
}
