import { diffDistance, lineDiff, requestLines } from './lineDiff';

test('keeps common lines and marks removed and added ones in order', () => {
  expect(lineDiff(['a', 'b', 'c', 'd'], ['a', 'x', 'c', 'd', 'e'])).toEqual([
    { kind: ' ', text: 'a' },
    { kind: '-', text: 'b' },
    { kind: '+', text: 'x' },
    { kind: ' ', text: 'c' },
    { kind: ' ', text: 'd' },
    { kind: '+', text: 'e' },
  ]);
  expect(diffDistance(lineDiff(['a'], ['a']))).toBe(0);
  expect(diffDistance(lineDiff([], ['a', 'b']))).toBe(2);
});

test('a request as lines: method and path, headers, then the body pretty-printed', () => {
  expect(requestLines({ method: 'POST', path: '/v1/x', headers: { b: '2', a: '1' }, body: { k: [1] } })).toEqual([
    'POST /v1/x',
    'a: 1',
    'b: 2',
    '{',
    '  "k": [',
    '    1',
    '  ]',
    '}',
  ]);
  expect(requestLines({ method: 'GET', path: '/v1/models', headers: {}, body: null })).toEqual(['GET /v1/models']);
});
