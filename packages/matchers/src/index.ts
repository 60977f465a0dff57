/**
 * @sf-m3/matchers: Jest matchers for MCP results and traces that record their verdicts as
 * evaluations. Pure entry: nothing is registered until you call `expect.extend(m3Matchers)` (the
 * sf-m3 preset does it for you; `@sf-m3/matchers/extend-expect` does it in a setup file).
 */
import './augment';

export { m3Matchers } from './matchers';
export type { M3MatcherName } from './matchers';
export type { M3Matchers } from './M3Matchers';
export type { ToolCallOptions, ToolCallsOptions, TurnSelector } from './toolCallOptions';
export type { ToolCallEvidence, ToolCallInfo } from './toolCallCandidates';
export type { StructuredContentOptions } from './toHaveStructuredContent';
export type { ContentOptions } from './toHaveContent';
export type { ExpectedError } from './toHaveError';
export type { TraceOptions } from './toHaveTrace';
export type { EventOptions } from './toHaveEvent';
export type { DurationOptions } from './toHaveDuration';
export type { JudgeOptions } from './toSatisfyJudge';
export type { ToolLintOptions, ToolLintViolation, ToolLintRuleName } from '@sf-m3/core';
export { DEFAULT_JUDGE_EVALUATOR } from './toSatisfyJudge';
export { NEGATED_JUDGE_EVALUATOR } from './toSatisfyJudge';
export { ENTRY_KINDS } from './toHaveEvent';
export { matchValue } from './matchValue';
export type { MatchOptions } from './matchValue';
export { resolveSubject } from '@sf-m3/core/internal';
export type { SubjectResolution, ViewLike } from '@sf-m3/core/internal';
export { evaluatorName } from './recordVerdict';
export type { MatcherCheck, KitLike } from './findKit';
