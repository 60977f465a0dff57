import type pino from 'pino';
import type { Redactor } from '../redaction/Redactor';

/** The log levels sf-m3 writes at. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

/** A logger whose every message and field passes through the redaction canaries first. */
export interface M3Logger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

let root: pino.Logger | undefined;

/** The process-wide pino logger: silent unless `M3_LOG_LEVEL` is set, writing to stderr; created on first use. */
export function getRootLogger(): pino.Logger {
  if (root === undefined) {
    const level = process.env.M3_LOG_LEVEL;
    // Loaded here, not at import: most runs never log, and `require('@sf-m3/core')` stays light.
    const pino = require('pino') as typeof import('pino');
    root = pino(
      { name: 'sf-m3', level: level !== undefined && level.length > 0 ? level : 'silent' },
      pino.destination({ fd: 2, sync: true }),
    );
  }
  return root;
}

/** A logger bound to `bindings` that redacts with `redactor` before anything is written. */
export function createLogger(redactor: Redactor, bindings: Record<string, string> = {}): M3Logger {
  const write =
    (level: LogLevel) =>
    (message: string, fields: Record<string, unknown> = {}) => {
      const logger = getRootLogger();
      if (!logger.isLevelEnabled(level)) return;
      logger[level]({ ...redactor.redactJson(bindings), ...redactor.redactJson(fields) }, redactor.redactText(message));
    };
  return { debug: write('debug'), info: write('info'), warn: write('warn'), error: write('error') };
}

/** Forgets the cached logger so a changed `M3_LOG_LEVEL` takes effect (tests). */
export function resetLogger(): void {
  root = undefined;
}
