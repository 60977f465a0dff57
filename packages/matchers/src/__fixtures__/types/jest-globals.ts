// `expect` imported from @jest/globals: the m3 matchers are merged into the `expect` package's `Matchers`.
import { expect } from '@jest/globals';
import '../../index';

declare const subject: unknown;
declare const judge: object;

export async function importedExpect(): Promise<void> {
  expect(subject).toHaveToolCall('search', { server: 'web', status: 'success', minLatencyMs: 1 });
  expect(subject).not.toHaveToolCall('delete_file');
  expect(subject).toHaveToolCalls(['a'], { evidence: 'any' });
  expect(subject).toHaveStructuredContent({ a: 1 });
  expect(subject).toHaveTrace({ completeness: 'partial' });
  await expect(subject).toSatisfyJudge(judge, { input: 'q', expected: 'a' });
  expect(subject).toPassToolLint();
  expect(subject).not.toPassToolLint({ allow: [{ rule: 'hidden_characters', text: '\\u{200B}' }] });
  // @ts-expect-error the count must be a number
  expect(subject).toHaveToolCall('search', { count: 'two' });
  // @ts-expect-error not an execution outcome
  expect(subject).toHaveOutcome('done');
  // @ts-expect-error evidence must be wire, reported or any
  expect(subject).toHaveToolCall('search', { evidence: 'guess' });
}
