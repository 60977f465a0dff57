import { m3Matchers } from './index';
import { editedView, failureOf, openClient, trace, turnOf, weatherTrace } from './matchers.testkit';

expect.extend(m3Matchers);

describe('toHaveToolCalls', () => {
  const view = weatherTrace().view();

  test('the ordered list of called tools, repeats included', () => {
    expect(view).toHaveToolCalls(['get_weather', 'get_weather', 'search']);
    expect(view).not.toHaveToolCalls(['get_weather', 'search']);
    expect(view).not.toHaveToolCalls(['search', 'get_weather', 'get_weather']);
  });

  test('ordered: false compares as a multiset', () => {
    expect(view).toHaveToolCalls(['search', 'get_weather', 'get_weather'], { ordered: false });
    expect(view).not.toHaveToolCalls(['search', 'get_weather'], { ordered: false });
  });

  test('server and turn filter before comparing', () => {
    expect(view).toHaveToolCalls(['search'], { server: 'docs' });
    const turned = trace({
      calls: [
        { tool: 'a', turnId: 't1' },
        { tool: 'b', turnId: 't2' },
        { tool: 'c', turnId: 't1' },
      ],
    });
    expect(turned.view()).toHaveToolCalls(['a', 'c'], { turn: 't1' });
    expect(turnOf(turned, 't2')).toHaveToolCalls(['b']);
  });

  test('evidence selects the source', () => {
    const data = editedView(weatherTrace(), (entry, index) => {
      if (index === 2) entry.wire = { state: 'unavailable', value: null, reason: 'correlation_unavailable' };
    });
    expect(data).toHaveToolCalls(['get_weather', 'get_weather']);
    expect(data).toHaveToolCalls(['get_weather', 'get_weather', 'search'], { evidence: 'any' });
  });

  test('an empty list asserts no calls, and needs a finalized subject', () => {
    expect(trace().view()).toHaveToolCalls([]);
    expect(failureOf(() => expect(openClient()).toHaveToolCalls([]))).toContain(
      'a negative assertion needs a finalized subject',
    );
  });

  test('the failure shows a diff and the calls that happened', () => {
    const message = failureOf(() => expect(view).toHaveToolCalls(['get_weather', 'search']));
    expect(message).toContain('Calls that happened (wire evidence):');
    expect(message).toMatchSnapshot();
    expect(
      failureOf(() => expect(view).not.toHaveToolCalls(['get_weather', 'get_weather', 'search'])),
    ).toMatchSnapshot();
  });

  test('names must be an array of strings; options are checked', () => {
    expect(() => expect(view).toHaveToolCalls('search' as never)).toThrow('must be an array of tool names');
    expect(() => expect(view).toHaveToolCalls([], { order: true } as never)).toThrow('unknown option "order"');
  });
});
