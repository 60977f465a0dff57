import { storedEvaluation } from '@sf-m3/test-utils/store';
import { assertionLabel, assertionText, MAX_ASSERTION_ARGS } from './assertionLabel';

describe('assertionLabel', () => {
  test('names the call site relative to the project, and the tool and arguments when recorded', () => {
    const label = assertionLabel(
      { metadata: { testPath: '/p/tests/git.test.ts', line: 42, tool: 'git_status', arguments: { repo: '.' } } },
      '/p',
    );
    expect(label).toEqual({ site: 'tests/git.test.ts:42', tool: 'git_status', args: '{"repo":"."}' });
    expect(assertionText(label)).toBe('tests/git.test.ts:42 git_status {"repo":"."}');
  });

  test('two assertions of the same matcher in one test get different labels', () => {
    const first = assertionText(assertionLabel({ metadata: { testPath: '/p/a.test.ts', line: 10 } }, '/p'));
    const second = assertionText(assertionLabel({ metadata: { testPath: '/p/a.test.ts', line: 11 } }, '/p'));
    expect(first).toBe('a.test.ts:10');
    expect(second).not.toBe(first);
  });

  test('a path outside the project stays whole; nothing recorded gives an empty label; long arguments are cut', () => {
    expect(assertionLabel({ metadata: { testPath: '/elsewhere/x.test.ts', line: 3 } }, '/p').site).toBe(
      '/elsewhere/x.test.ts:3',
    );
    expect(assertionText(assertionLabel({ metadata: {} }))).toBe('');
    const args = assertionLabel({ metadata: { arguments: 'x'.repeat(500) } }).args!;
    expect(args).toHaveLength(MAX_ASSERTION_ARGS);
    expect(args.endsWith('…')).toBe(true);
  });

  test('reads what the matchers save (metadata testPath and line)', () => {
    const row = storedEvaluation({
      evaluator: 'm3.expect.toHaveToolCall',
      metadata: { matcher: 'toHaveToolCall', testPath: '/p/t.test.ts', line: 7, negated: false },
    });
    expect(assertionLabel(row.result, '/p').site).toBe('t.test.ts:7');
  });
});
