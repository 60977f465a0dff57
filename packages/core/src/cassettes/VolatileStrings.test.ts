import { VolatileStrings } from './VolatileStrings';

test('numbers the strings in the order given, replaces the longest first, and restores them', () => {
  const volatile = new VolatileStrings(['/tmp/run', '/tmp/run/work', '', '/tmp/run']);
  const hidden = volatile.hide('cd /tmp/run/work && ls /tmp/run');
  expect(hidden).toBe('cd <volatile:2> && ls <volatile:1>');
  expect(volatile.restore(hidden)).toBe('cd /tmp/run/work && ls /tmp/run');
});

test('a replay run restores its own values in place of the recorded ones', () => {
  const recorded = new VolatileStrings(['/tmp/a', '4100']).hide('open /tmp/a on port 4100');
  expect(new VolatileStrings(['/tmp/b', '5200']).restore(recorded)).toBe('open /tmp/b on port 5200');
});

test('hides and restores every string inside JSON, keys untouched', () => {
  const volatile = new VolatileStrings(['/w']);
  const hidden = volatile.hideJson({ '/w': ['/w/x', 1, null, { p: '/w' }] });
  expect(hidden).toEqual({ '/w': ['<volatile:1>/x', 1, null, { p: '<volatile:1>' }] });
  expect(volatile.restoreJson(hidden)).toEqual({ '/w': ['/w/x', 1, null, { p: '/w' }] });
  expect(new VolatileStrings().empty).toBe(true);
});
