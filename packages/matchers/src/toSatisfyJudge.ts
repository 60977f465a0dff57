import type { MatcherContext } from 'expect';
import { defineMatcher } from './defineMatcher';
import type { M3MatcherScope, MatcherVerdict } from './defineMatcher';
import { checkOptions, hint, usageError } from './messages';
import { subjectIds } from '@sf-m3/core/internal';
import { resolveText, TEXT_SUBJECTS } from './resolveText';

/** Options of `toSatisfyJudge`. */
export interface JudgeOptions {
  /** What the agent or tool was asked (sent to the judge as JSON). */
  readonly input?: unknown;
  /** The reference answer (sent to the judge as JSON). */
  readonly expected?: unknown;
  /**
   * Evaluator name the judge's verdict is saved under (default `m3.expect.toSatisfyJudge.judge`, or
   * `m3.expect.not.toSatisfyJudge.judge` under `.not`). A name you give is used in both directions.
   */
  readonly name?: string;
  /** Make the judge's evaluation required (a failure also throws `RequiredEvaluationError`). */
  readonly required?: boolean;
}

/** The evaluator name a judge verdict is saved under when `options.name` is not given. */
export const DEFAULT_JUDGE_EVALUATOR = 'm3.expect.toSatisfyJudge.judge';

/**
 * The evaluator name a `.not.toSatisfyJudge` judge verdict is saved under when `options.name` is not
 * given: there the judge is expected to fail the response, so its verdicts stay out of the positive rate.
 */
export const NEGATED_JUDGE_EVALUATOR = 'm3.expect.not.toSatisfyJudge.judge';

const NAME = 'toSatisfyJudge';

// The judge request carries input and expected as JSON strings; plain strings go as they are.
const asText = (value: unknown): string =>
  typeof value === 'string' ? value : value === undefined ? '' : (JSON.stringify(value) ?? '');

async function assertJudge(
  this: MatcherContext,
  scope: M3MatcherScope,
  received: unknown,
  judge: unknown,
  options: JudgeOptions = {},
): Promise<MatcherVerdict> {
  const label = 'judge, options';
  if (typeof judge !== 'object' || judge === null) {
    throw usageError(this, NAME, `${this.utils.EXPECTED_COLOR('judge')} must be an LLMJudge`, {
      label: 'Judge',
      value: judge,
    });
  }
  checkOptions(
    this,
    NAME,
    options,
    ['input', 'expected', 'name', 'required'],
    '{ input?, expected?, name?: string, required?: boolean }',
  );
  const actual = resolveText(received);
  if (actual === undefined) {
    throw usageError(this, NAME, `${this.utils.RECEIVED_COLOR('received')} value must be ${TEXT_SUBJECTS}`, {
      label: 'Received',
      value: received,
    });
  }
  const kit = scope.kit;
  if (!kit || typeof kit.judgeResponse !== 'function') {
    return {
      pass: false,
      unusable: true,
      message: () =>
        `${hint(this, NAME, label)}\n\ntoSatisfyJudge needs a kit to run the judge and save its verdict: run the test ` +
        'under the sf-m3 preset (which provides m3Kit), or assert on a result made by a kit.',
    };
  }
  const ids = subjectIds(received);
  const negated = this.isNot === true;
  // The judge's verdict is saved as the judge gave it (never negated); `metadata.negated` tells
  // which assertion asked for it, and the default name keeps the two directions apart.
  const verdict = await kit.judgeResponse({
    name: options.name ?? (negated ? NEGATED_JUDGE_EVALUATOR : DEFAULT_JUDGE_EVALUATOR),
    metadata: { negated, matcher: NAME },
    input: asText(options.input),
    actual,
    expected: asText(options.expected),
    judge,
    executionId: ids.executionId ?? undefined,
    turnId: ids.turnId ?? undefined,
    required: options.required,
    // The judge's request goes through the test's cassettes (contract §24), when it has them.
    ...(kit.cassettes != null && { cassette: kit.cassettes }),
  });
  const status = verdict.status;
  const details =
    `Judge verdict: ${this.utils.printReceived(status)}` +
    (typeof verdict.score === 'number' ? `, score ${this.utils.printReceived(verdict.score)}` : '') +
    (verdict.rationale ? `\nRationale: ${String(scope.safe(verdict.rationale))}` : '');
  if (status !== 'passed' && status !== 'failed') {
    return {
      pass: false,
      unusable: true,
      savedThroughKit: true,
      message: () => `${hint(this, NAME, label)}\n\nthe judge could not decide (status ${status}).\n${details}`,
    };
  }
  const message = () =>
    `${hint(this, NAME, label)}\n\n` +
    `Expected the judge ${this.isNot ? 'not ' : ''}to pass the response\n` +
    `Response: ${this.utils.printReceived(scope.safe(actual))}\n${details}`;
  return { pass: status === 'passed', savedThroughKit: true, message };
}

/**
 * `await expect(turnOrText).toSatisfyJudge(judge, { input, expected })`: runs `kit.judgeResponse`
 * and passes when the verdict is `passed`. An `error` verdict (abstention, timeout...) fails
 * with or without `.not`. The matcher's own check is saved too, text subjects included.
 */
export const toSatisfyJudge = defineMatcher<[judge: unknown, options?: JudgeOptions]>(NAME, assertJudge, {
  needsKit: true,
});
