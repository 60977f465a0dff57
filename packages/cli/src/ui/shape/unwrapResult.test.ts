import { unwrapResult } from './unwrapResult';

describe('unwrapResult', () => {
  test('the wire result and an MCP-shaped reported result unwrap to the same thing', () => {
    const wire = {
      content: [{ type: 'text', text: 'On branch main' }],
      structuredContent: { state: 'observed', value: { branch: 'main' } },
      isError: false,
    };
    const reported = {
      content: [{ type: 'text', text: 'On branch main' }],
      structuredContent: { branch: 'main' },
      isError: false,
    };
    const expected = {
      texts: ['On branch main'],
      others: [],
      structured: { branch: 'main' },
      isError: false,
      raw: undefined,
    };
    expect(unwrapResult(wire)).toEqual(expected);
    expect(unwrapResult(reported)).toEqual(expected);
  });

  test('a structuredContent that was not emitted is no structured content', () => {
    const wire = { content: [], structuredContent: { state: 'not_emitted', value: null, reason: 'x' }, isError: true };
    expect(unwrapResult(wire)).toMatchObject({ texts: [], structured: undefined, isError: true });
  });

  test('a reported plain string, a list of blocks and an unknown shape', () => {
    expect(unwrapResult('done').texts).toEqual(['done']);
    const blocks = [
      { type: 'text', text: 'a' },
      { type: 'image', mimeType: 'image/png', data: 'AAAA' },
      { type: 'resource', resource: { uri: 'file:///x', text: 'body' } },
    ];
    expect(unwrapResult(blocks)).toMatchObject({
      texts: ['a', 'body'],
      others: ['image (image/png, 4 characters of data)'],
    });
    expect(unwrapResult({ weird: 1 }).raw).toEqual({ weird: 1 });
  });
});
