// Global `expect` typed by @types/jest: the m3 matchers are merged into `jest.Matchers`.
import '../../index';

declare const subject: unknown;
declare const judge: object;

export async function globalExpect(): Promise<void> {
  expect(subject).toHaveToolCall('search', { server: 'web', argumentsPartial: true, arguments: { q: 'x' } });
  expect(subject).not.toHaveToolCall('delete_file');
  expect(subject).toHaveToolCalls(['a']);
  expect(subject).toHaveText('x');
  expect(subject).toBeCompleted();
  expect(subject).toHaveEvent('process');
  await expect(subject).toSatisfyJudge(judge, { input: 'q' });
  expect(subject).toPassToolLint({ rules: { model_directed_text: 'off' }, allow: [{ rule: 'tool_name', tool: 'x' }] });
  // @ts-expect-error not a lint rule
  expect(subject).toPassToolLint({ rules: { no_such_rule: 'off' } });
  // @ts-expect-error the count must be a number
  expect(subject).toHaveToolCall('search', { count: 'two' });
  // @ts-expect-error not an execution outcome
  expect(subject).toHaveOutcome('done');
  // @ts-expect-error not a timeline entry kind
  expect(subject).toHaveEvent('mcp.request');
  // @ts-expect-error unknown option
  expect(subject).toHaveToolCall('search', { args: {} });
  // @ts-expect-error no such matcher
  expect(subject).toHaveToolCallz('search');
}
