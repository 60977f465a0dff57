import type { EntryKind, ExecutionLifecycle, ExecutionOutcome, ToolLintOptions, TransportKind } from '@sf-m3/core';
import type { ContentOptions } from './toHaveContent';
import type { DurationOptions } from './toHaveDuration';
import type { ExpectedError } from './toHaveError';
import type { EventOptions } from './toHaveEvent';
import type { StructuredContentOptions } from './toHaveStructuredContent';
import type { TraceOptions } from './toHaveTrace';
import type { JudgeOptions } from './toSatisfyJudge';
import type { ToolCallOptions, ToolCallsOptions } from './toolCallOptions';

/**
 * The sf-m3 matchers (contract §7), written once and merged into Jest's `Matchers` for both
 * `@types/jest` globals and `@jest/globals`. Every matcher supports `.not`; failure messages are
 * bounded, redacted and end with `executionId=...` when the subject has one.
 */
export interface M3Matchers<R> {
  /**
   * The joined text (text blocks concatenated, a resource's `text`, a turn's response) equals `expected`.
   * @example expect(await client.callTool('echo', { text: 'hi' })).toHaveText('hi');
   */
  toHaveText(expected: string): R;
  /**
   * The joined text contains `expected`.
   * @example expect(await client.readResource('file:///readme')).toHaveTextContaining('Usage');
   */
  toHaveTextContaining(expected: string): R;
  /**
   * The joined text matches `pattern` (a search, not a full match).
   * @example expect(turn).toHaveTextMatching(/\d+ °C/);
   */
  toHaveTextMatching(pattern: RegExp | string): R;
  /**
   * The tool result's `structuredContent` deep-equals `expected` (or contains it with `partial`).
   * @example expect(result).toHaveStructuredContent({ amount: 9 }, { partial: true });
   */
  toHaveStructuredContent(expected: unknown, options?: StructuredContentOptions): R;
  /**
   * The content blocks match exactly, in order (or as a multiset with `ordered: false`).
   * @example expect(result).toHaveContent([{ type: 'text', text: 'hi' }]);
   */
  toHaveContent(expected: unknown, options?: ContentOptions): R;
  /**
   * The tool result has `isError: true` (and its text contains `text`). Tool errors are results, not exceptions.
   * @example expect(await client.callTool('divide', { a: 1, b: 0 })).toBeToolError('division by zero');
   */
  toBeToolError(text?: string): R;
  /**
   * A matching tool call exists in the finalized trace (or the count holds). Reads wire evidence by
   * default; a tool seen on two servers needs `server`.
   * @example expect(client).toHaveToolCall('get_weather', { arguments: { city: 'Oslo' }, status: 'success' });
   * @example expect(execution).not.toHaveToolCall('delete_file');
   */
  toHaveToolCall(tool?: string, options?: ToolCallOptions): R;
  /**
   * A call matching `options` exists, whatever its tool.
   * @example expect(client).toHaveToolCall({ status: 'tool_error', count: 0 });
   */
  toHaveToolCall(options: ToolCallOptions): R;
  /**
   * The complete list of called tool names equals `names` (or the same multiset with `ordered: false`).
   * @example expect(client).toHaveToolCalls(['search', 'fetch', 'fetch']);
   */
  toHaveToolCalls(names: readonly string[], options?: ToolCallsOptions): R;
  /**
   * The execution (or turn) outcome is `completed`.
   * @example expect(client.result).toBeCompleted();
   */
  toBeCompleted(): R;
  /**
   * The execution (or turn) outcome is `outcome`.
   * @example expect(result).toHaveOutcome('timed_out');
   */
  toHaveOutcome(outcome: ExecutionOutcome): R;
  /**
   * The execution snapshot's lifecycle is `lifecycle`.
   * @example expect(result).toHaveLifecycle('finished');
   */
  toHaveLifecycle(lifecycle: ExecutionLifecycle): R;
  /**
   * The execution ended with an error; a string matches the code or part of the message, a RegExp
   * the message, an object is a partial match of `{ code, message, details }`.
   * @example expect(result).toHaveError('timeout');
   */
  toHaveError(expected?: ExpectedError): R;
  /**
   * The observed initialization negotiated this protocol version.
   * @example expect(client).toHaveProtocolVersion('2025-11-25');
   */
  toHaveProtocolVersion(version: string): R;
  /**
   * The observed transport is `transport`.
   * @example expect(client).toHaveTransport('stdio');
   */
  toHaveTransport(transport: TransportKind): R;
  /**
   * The server declared capability `name` at initialization.
   * @example expect(client).toHaveCapability('tools');
   */
  toHaveCapability(name: string): R;
  /**
   * The finalized trace has this completeness and lists this limitation.
   * @example expect(client).toHaveTrace({ completeness: 'partial', limitation: 'capture_incomplete' });
   */
  toHaveTrace(options?: TraceOptions): R;
  /**
   * The timeline holds entries of this public entry kind (at least one, or exactly `count`).
   * @example expect(client).toHaveEvent('process', { count: 1 });
   */
  toHaveEvent(kind: EntryKind, options?: EventOptions): R;
  /**
   * The execution's duration is within `[minMs, maxMs]`.
   * @example expect(client).toHaveDuration({ maxMs: 5_000 });
   */
  toHaveDuration(options: DurationOptions): R;
  /**
   * Runs the judge through the kit (`kit.judgeResponse`) and passes when its verdict is `passed`. Async.
   * @example await expect(turn).toSatisfyJudge(judge, { input: 'What is 2+2?', expected: '4' });
   */
  toSatisfyJudge(judge: object, options?: JudgeOptions): Promise<R>;
  /**
   * The listed tools pass the lint rules of contract §25: names, duplicates, descriptions, hidden
   * characters, text addressed to the model, input schema type, schemas that compile, and no silent
   * redefinition between listings of the same server. Offline; `options.rules` switches rules off,
   * `options.allow` accepts known findings.
   * @example expect(await client.listAllTools()).toPassToolLint({ rules: { missing_description: 'off' } });
   */
  toPassToolLint(options?: ToolLintOptions): R;
}
