import { toolRounds, type FakeModelRequest } from './fakeModelRequest';

/** Hard limits that make a runaway agent loop fail fast instead of hanging a test. */
export interface FakeModelLimits {
  /** Model requests answered in all; default 200. */
  readonly maxRequests: number;
  /** Tool-call rounds in one conversation, counted from the request's own history; default 25. */
  readonly maxRounds: number;
}

/** Default limits. */
export const DEFAULT_FAKE_MODEL_LIMITS: FakeModelLimits = { maxRequests: 200, maxRounds: 25 };

/** A request the fake refused because a limit was reached. */
export interface FakeLimitViolation {
  readonly limit: 'maxRequests' | 'maxRounds';
  /** The configured limit. */
  readonly value: number;
  /** What the request would have made it: its number, or its conversation's rounds. */
  readonly observed: number;
  /** Number of the refused model request. */
  readonly requestNumber: number;
  /** The message sent back (HTTP 400, in the dialect's error shape). */
  readonly message: string;
}

/**
 * The limit a request breaks, or null. Rounds: a conversation whose history already holds more than
 * `maxRounds` tool-call rounds is refused (so `maxRounds: 2` allows two rounds and the answer after them).
 */
export function checkLimits(limits: FakeModelLimits, request: FakeModelRequest): FakeLimitViolation | null {
  if (request.number > limits.maxRequests) {
    return violation(
      'maxRequests',
      limits.maxRequests,
      request.number,
      request.number,
      `this is model request ${request.number}`,
    );
  }
  const rounds = toolRounds(request);
  if (rounds > limits.maxRounds) {
    return violation(
      'maxRounds',
      limits.maxRounds,
      rounds,
      request.number,
      `this conversation already holds ${rounds} tool-call rounds`,
    );
  }
  return null;
}

function violation(
  limit: FakeLimitViolation['limit'],
  value: number,
  observed: number,
  requestNumber: number,
  what: string,
): FakeLimitViolation {
  const message =
    `fake model server: ${limit} limit of ${value} reached (${what}); a runaway agent loop? ` +
    `If the test needs more, raise it: new FakeChatCompletionsServer({ ${limit}: ${value * 2} }).`;
  return { limit, value, observed, requestNumber, message };
}
