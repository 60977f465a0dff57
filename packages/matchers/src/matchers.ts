import { toHaveCapability, toHaveProtocolVersion, toHaveTransport } from './initializationMatchers';
import { toBeToolError } from './toBeToolError';
import { toHaveContent } from './toHaveContent';
import { toHaveDuration } from './toHaveDuration';
import { toHaveError } from './toHaveError';
import { toHaveEvent } from './toHaveEvent';
import { toHaveLifecycle } from './toHaveLifecycle';
import { toBeCompleted, toHaveOutcome } from './toHaveOutcome';
import { toHaveStructuredContent } from './toHaveStructuredContent';
import { toHaveText, toHaveTextContaining, toHaveTextMatching } from './toHaveText';
import { toHaveToolCall } from './toHaveToolCall';
import { toHaveToolCalls } from './toHaveToolCalls';
import { toHaveTrace } from './toHaveTrace';
import { toPassToolLint } from './toPassToolLint';
import { toSatisfyJudge } from './toSatisfyJudge';

/** Every sf-m3 matcher, ready for `expect.extend(m3Matchers)`. Importing this performs no side effects. */
export const m3Matchers = {
  toHaveText,
  toHaveTextContaining,
  toHaveTextMatching,
  toHaveStructuredContent,
  toHaveContent,
  toBeToolError,
  toHaveToolCall,
  toHaveToolCalls,
  toBeCompleted,
  toHaveOutcome,
  toHaveLifecycle,
  toHaveError,
  toHaveProtocolVersion,
  toHaveTransport,
  toHaveCapability,
  toHaveTrace,
  toHaveEvent,
  toHaveDuration,
  toSatisfyJudge,
  toPassToolLint,
} as const;

/** The names of the sf-m3 matchers. */
export type M3MatcherName = keyof typeof m3Matchers;
