import { m3Matchers } from './index';
import { EXEC_ID, failureOf, trace, turnOf } from './matchers.testkit';

expect.extend(m3Matchers);

const a = { type: 'text', text: 'a' };
const b = { type: 'text', text: 'b' };
const result = { content: [a, b], isError: false, executionId: EXEC_ID, tool: 't', server: 's' };

describe('toHaveContent', () => {
  test('blocks match exactly and in order by default', () => {
    expect(result).toHaveContent([a, b]);
    expect(result).not.toHaveContent([b, a]);
    expect(result).not.toHaveContent([a]);
    expect(result).not.toHaveContent([{ type: 'text', text: 'a', extra: 1 }, b]);
  });
  test('ordered: false compares as a multiset', () => {
    expect(result).toHaveContent([b, a], { ordered: false });
    expect(result).not.toHaveContent([a, a], { ordered: false });
  });
  test('a single block is a one-item list; turns use their response content', () => {
    expect({ ...result, content: [a] }).toHaveContent(a);
    expect(turnOf(trace(), 'turn-1', 'hi')).toHaveContent([{ type: 'text', text: 'hi' }]);
  });
  test('failure message', () => {
    expect(failureOf(() => expect(result).toHaveContent([a, { type: 'text', text: 'c' }]))).toMatchSnapshot();
    expect(failureOf(() => expect(result).not.toHaveContent([a, b]))).toContain('not to be');
  });
  test('usage errors', () => {
    expect(() => expect('x').toHaveContent([])).toThrow('must be a tool result or a TurnResult');
    expect(() => expect(result).toHaveContent([], { order: 1 } as never)).toThrow(
      'options must be { ordered?: boolean }',
    );
  });
});
