/** Stable codes of judge failures; each is saved as an `error` evaluation, never thrown into the test. */
export const JudgeErrorCode = Object.freeze({
  /** The subject is not `{ input, expected, actual }` strings within size limits; nothing was sent. */
  INPUT_INVALID: 'judge_input_invalid',
  /** The key environment variable is unset or empty; nothing was sent. */
  CREDENTIAL_MISSING: 'judge_credential_missing',
  /** The model refused (a `refusal` message or `content_filter` finish). */
  REFUSED: 'judge_refused',
  /** The reply was not one valid `{ score, rationale, abstain }` object. */
  MALFORMED_RESPONSE: 'judge_malformed_response',
  /** The judge said the evidence cannot be assessed. */
  ABSTAINED: 'judge_abstained',
  /** The endpoint did not answer within `timeoutMs`. */
  TIMEOUT: 'judge_timeout',
  /** The endpoint answered with a non-2xx status (after retries for 429/5xx), or a redirect. */
  HTTP_ERROR: 'judge_http_error',
  /** The endpoint could not be reached. */
  NETWORK_ERROR: 'judge_network_error',
  /** The run's judge budget (`m3 test --judge-max-requests N`) was spent; nothing was sent. */
  BUDGET_EXHAUSTED: 'judge_budget_exhausted',
  /** In cassette mode `replay`, the judge's request had no recorded answer (contract §24); nothing was sent. */
  CASSETTE_MISS: 'cassette_miss',
} as const);
export type JudgeErrorCode = (typeof JudgeErrorCode)[keyof typeof JudgeErrorCode];
