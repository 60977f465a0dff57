import type { MatcherContext } from 'expect';
import { defineMatcher } from './defineMatcher';
import type { M3MatcherScope, MatcherVerdict } from './defineMatcher';
import { checkOptions, hint, usageError } from './messages';
import { subjectIds } from './resolveSubject';
import { resolveText, TEXT_SUBJECTS } from './resolveText';

/** Options of `toSatisfyJudge`. */
export interface JudgeOptions {
  /** What the agent or tool was asked (sent to the judge as JSON). */
  readonly input?: unknown;
  /** The reference answer (sent to the judge as JSON). */
  readonly expected?: unknown;
  /** Evaluator name the judge's verdict is saved under (default `m3.expect.toSatisfyJudge.judge`). */
  readonly name?: string;
  /** Make the judge's evaluation required (a failure also throws `RequiredEvaluationError`). */
  readonly required?: boolean;
}

/** The evaluator name a judge verdict is saved under when `options.name` is not given. */
export const DEFAULT_JUDGE_EVALUATOR = 'm3.expect.toSatisfyJudge.judge';

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
  const verdict = await kit.judgeResponse({
    name: options.name ?? DEFAULT_JUDGE_EVALUATOR,
    input: asText(options.input),
    actual,
    expected: asText(options.expected),
    judge,
    executionId: ids.executionId ?? undefined,
    turnId: ids.turnId ?? undefined,
    required: options.required,
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
      message: () => `${hint(this, NAME, label)}\n\nthe judge could not decide (status ${status}).\n${details}`,
    };
  }
  const message = () =>
    `${hint(this, NAME, label)}\n\n` +
    `Expected the judge ${this.isNot ? 'not ' : ''}to pass the response\n` +
    `Response: ${this.utils.printReceived(scope.safe(actual))}\n${details}`;
  return { pass: status === 'passed', message };
}

/**
 * `await expect(turnOrText).toSatisfyJudge(judge, { input, expected })`: runs `kit.judgeResponse`
 * and passes when the verdict is `passed`. An `error` verdict (abstention, timeout...) fails
 * with or without `.not`.
 */
export const toSatisfyJudge = defineMatcher<[judge: unknown, options?: JudgeOptions]>(NAME, assertJudge, {
  needsKit: true,
});
