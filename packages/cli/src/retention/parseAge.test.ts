import { UsageError } from '../options/UsageError';
import { olderThanInstant, parseAge } from './parseAge';

describe('parseAge', () => {
  test('a whole number and a unit: minutes, hours, days, weeks', () => {
    expect(parseAge('--older-than', '90m')).toBe(90 * 60_000);
    expect(parseAge('--older-than', '12h')).toBe(12 * 3_600_000);
    expect(parseAge('--older-than', '30d')).toBe(30 * 86_400_000);
    expect(parseAge('--older-than', ' 2w ')).toBe(14 * 86_400_000);
  });

  test.each(['30', 'd', '0d', '-3d', '1.5d', '30 days', '1y', '10s', ''])(
    '"%s" is a usage error naming the flag',
    (value) => {
      expect(() => parseAge('--older-than', value)).toThrow(UsageError);
      expect(() => parseAge('--older-than', value)).toThrow(
        `--older-than: "${value}" is not a duration: use a positive whole number and a unit`,
      );
    },
  );

  test('olderThanInstant counts back from now', () => {
    const now = new Date('2026-03-31T12:00:00.000Z');
    expect(olderThanInstant('--older-than', '30d', now)).toBe('2026-03-01T12:00:00.000Z');
    expect(olderThanInstant('--older-than', '1h', now)).toBe('2026-03-31T11:00:00.000Z');
  });
});
