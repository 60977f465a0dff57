import { m3Matchers } from './index';
import { EXEC_ID, failureOf } from './matchers.testkit';

expect.extend(m3Matchers);

const failed = {
  content: [{ type: 'text', text: 'division by zero' }],
  isError: true,
  executionId: EXEC_ID,
  tool: 'divide',
  server: 'math',
};
const ok = { ...failed, content: [{ type: 'text', text: '2' }], isError: false };

describe('toBeToolError', () => {
  test('isError true passes; false fails', () => {
    expect(failed).toBeToolError();
    expect(ok).not.toBeToolError();
    expect(failureOf(() => expect(ok).toBeToolError())).toMatchSnapshot();
  });
  test('with text: the error text must contain it', () => {
    expect(failed).toBeToolError('by zero');
    expect(failed).not.toBeToolError('overflow');
    expect(ok).not.toBeToolError('2');
    expect(failureOf(() => expect(failed).not.toBeToolError('zero'))).toMatchSnapshot();
  });
  test('usage errors', () => {
    expect(() => expect('x').toBeToolError()).toThrow('must be a tool result');
    expect(() => expect(failed).toBeToolError(3 as never)).toThrow('text must be a string');
  });
});
