import { m3Matchers } from './index';
import { executionOf, failureOf, openClient, trace } from './matchers.testkit';

expect.extend(m3Matchers);

describe('toHaveDuration', () => {
  const t = trace({ calls: [{ tool: 'slow', latencyMs: 300 }] });
  const ms = t.view().summary.timing.durationMs;

  test('bounds the trace duration', () => {
    expect(ms).toBeGreaterThan(300);
    expect(t).toHaveDuration({ minMs: 300 });
    expect(t).toHaveDuration({ maxMs: ms });
    expect(executionOf(t)).toHaveDuration({ minMs: ms, maxMs: ms });
    expect(t).not.toHaveDuration({ maxMs: 100 });
  });
  test('failure messages', () => {
    expect(failureOf(() => expect(t).toHaveDuration({ maxMs: 100 }))).toContain(`Received duration: ${ms}ms`);
    expect(failureOf(() => expect(t).toHaveDuration({ minMs: 5000, maxMs: 6000 }))).toMatchSnapshot();
  });
  test('an unfinished execution has no duration: fails in both directions', () => {
    expect(failureOf(() => expect(openClient()).not.toHaveDuration({ maxMs: 1 }))).toContain('the duration is unknown');
  });
  test('usage errors', () => {
    expect(() => expect(t).toHaveDuration({})).toThrow('give options.minMs, options.maxMs or both');
    expect(() => expect(t).toHaveDuration({ minMs: -1 })).toThrow('finite non-negative number');
    expect(() => expect(t).toHaveDuration({ minMs: 5, maxMs: 1 })).toThrow('cannot exceed');
  });
});
