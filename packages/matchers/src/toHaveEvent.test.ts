import { m3Matchers } from './index';
import { failureOf, openClient, trace } from './matchers.testkit';

expect.extend(m3Matchers);

describe('toHaveEvent', () => {
  const t = trace({ calls: [{ tool: 'a' }, { tool: 'b' }] });
  test('counts timeline entries of a public entry kind', () => {
    expect(t).toHaveEvent('tool_call');
    expect(t).toHaveEvent('tool_call', { count: 2 });
    expect(t).toHaveEvent('process', { count: 1 });
    expect(t).toHaveEvent('initialization');
    expect(t).not.toHaveEvent('reasoning');
    expect(t).toHaveEvent('reasoning', { count: 0 });
    expect(t).not.toHaveEvent('tool_call', { count: 3 });
  });
  test('failure messages list the entries by kind', () => {
    const message = failureOf(() => expect(t).toHaveEvent('message'));
    expect(message).toContain('Timeline entries by kind:');
    expect(message).toMatchSnapshot();
  });
  test('raw event kinds and unknown kinds are usage errors that name the entry kinds', () => {
    expect(() => expect(t).toHaveEvent('mcp.request' as never)).toThrow('mcp.request is a raw event kind');
    expect(() => expect(t).toHaveEvent('nope' as never)).toThrow('must be a timeline entry kind: lifecycle, message');
    expect(() => expect(t).toHaveEvent('tool_call', { count: -1 })).toThrow('non-negative integer');
  });
  test('negative event assertions need a finalized subject', () => {
    expect(failureOf(() => expect(openClient()).not.toHaveEvent('tool_call'))).toContain('needs a finalized subject');
  });
});
