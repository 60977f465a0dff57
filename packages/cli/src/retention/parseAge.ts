// `--older-than DURATION` of `m3 prune`: a whole number and a unit, e.g. 30d, 12h, 2w.
import { UsageError } from '../options/UsageError';

const UNIT_MS: Record<string, number> = {
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 7 * 86_400_000,
};

/** Milliseconds of a duration such as `30d`; a `UsageError` naming `flag` and the accepted forms otherwise. */
export function parseAge(flag: string, value: string): number {
  const match = /^(\d{1,6})([mhdw])$/.exec(value.trim());
  const amount = match === null ? Number.NaN : Number(match[1]);
  if (match === null || amount < 1) {
    throw new UsageError(
      flag,
      `"${value}" is not a duration: use a positive whole number and a unit, m (minutes), h (hours), d (days) or w (weeks), e.g. 30d`,
    );
  }
  return amount * UNIT_MS[match[2]!]!;
}

/** The ISO instant `value` before `now`: runs that started earlier are older than `value`. */
export function olderThanInstant(flag: string, value: string, now: Date): string {
  return new Date(now.getTime() - parseAge(flag, value)).toISOString();
}
