// `--port` of `m3 ui` and `--ui-port` of `m3 test`.
import { UsageError } from '../options/UsageError';

/** Parses `--port`: 0 (any free port) or 1–65535. */
export function parsePort(flag: string, value: string | undefined): number {
  if (value === undefined) return 0;
  if (!/^\d{1,5}$/.test(value) || Number(value) > 65535) {
    throw new UsageError(flag, `must be a port number from 1 to 65535 (or 0 for any free port), not "${value}"`);
  }
  return Number(value);
}
