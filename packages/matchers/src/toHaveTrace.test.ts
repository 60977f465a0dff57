import { m3Matchers } from './index';
import { failureOf, openClient, trace } from './matchers.testkit';

expect.extend(m3Matchers);

describe('toHaveTrace', () => {
  const direct = trace();
  test('direct traces are partial with capture_incomplete', () => {
    expect(direct).toHaveTrace({ completeness: 'partial', limitation: 'capture_incomplete' });
    expect(direct).toHaveTrace();
    expect(direct).not.toHaveTrace({ completeness: 'complete' });
    expect(direct).not.toHaveTrace({ limitation: 'provider_hidden' });
  });
  test('failure messages', () => {
    expect(failureOf(() => expect(direct).toHaveTrace({ completeness: 'complete' }))).toMatchSnapshot();
  });
  test('an unfinalized trace fails in both directions', () => {
    expect(failureOf(() => expect(openClient()).toHaveTrace())).toContain('finalized trace unavailable');
    expect(failureOf(() => expect(openClient()).not.toHaveTrace({ completeness: 'complete' }))).toContain(
      'a negative assertion needs a finalized subject',
    );
  });
  test('usage errors', () => {
    expect(() => expect(direct).toHaveTrace({ completeness: 'full' as never })).toThrow("'complete' or 'partial'");
    expect(() => expect(direct).toHaveTrace({ limitations: [] } as never)).toThrow('options must be');
  });
});
