import type { MatcherContext } from 'expect';
import { defineMatcher } from './defineMatcher';
import type { M3MatcherScope, MatcherVerdict } from './defineMatcher';
import { matchValue, UNAVAILABLE } from './matchValue';
import { describeCalls, hint, notFinalizedMessage, plural, requireTraceSubject, usageError } from './messages';
import { resolveSubject, type ViewLike } from '@sf-m3/core/internal';
import {
  normaliseExpectedResult,
  serversDiscoveringTool,
  toolCallCandidates,
  toolCallInfo,
} from './toolCallCandidates';
import type { ToolCallCandidate } from './toolCallCandidates';
import { OptionError, turnIdOf, validateToolCallOptions } from './toolCallOptions';
import type { ToolCallOptions } from './toolCallOptions';

const NAME = 'toHaveToolCall';

function countPhrase(options: ToolCallOptions): string {
  if (options.count !== undefined) return `exactly ${plural(options.count, 'call')}`;
  if (options.minCount !== undefined && options.maxCount !== undefined) {
    return `between ${options.minCount} and ${options.maxCount} calls`;
  }
  if (options.maxCount !== undefined) return `at most ${plural(options.maxCount, 'call')}`;
  return `at least ${plural(options.minCount ?? 1, 'call')}`;
}

function countHolds(options: ToolCallOptions, n: number): boolean {
  if (options.count !== undefined) return n === options.count;
  if (options.minCount !== undefined || options.maxCount !== undefined) {
    return n >= (options.minCount ?? 0) && n <= (options.maxCount ?? Number.POSITIVE_INFINITY);
  }
  return n >= 1;
}

/** Thrown by a user predicate; reported as an unusable assertion, naming only the error type. */
class PredicateFailure extends Error {}

function callPredicate(label: string, run: () => unknown): boolean {
  try {
    return Boolean(run());
  } catch (error) {
    const type = error instanceof Error ? error.name : typeof error;
    throw new PredicateFailure(`the ${label} option threw ${type}; fix the function so it returns true or false`);
  }
}

/** The parts of the options that are the same for every call, worked out once per assertion. */
interface PreparedOptions {
  /** `options.result` in the spelling candidates use. */
  readonly expectedResult: unknown;
  readonly turnId: string | undefined;
}

function prepare(options: ToolCallOptions): PreparedOptions {
  return {
    expectedResult: options.result === undefined ? undefined : normaliseExpectedResult(options.result),
    turnId: options.turn === undefined ? undefined : turnIdOf(options.turn),
  };
}

function matches(
  call: ToolCallCandidate,
  tool: string | undefined,
  options: ToolCallOptions,
  prepared: PreparedOptions,
): boolean {
  if (tool !== undefined && call.tool !== tool) return false;
  if (options.server !== undefined && call.server !== options.server) return false;
  if (options.arguments !== undefined) {
    const ok = matchValue(call.arguments, options.arguments, {
      partial: options.argumentsPartial,
      unordered: options.argumentsUnordered,
      regex: options.argumentsRegex,
      tolerance: options.argumentsTolerance,
    });
    if (!ok) return false;
  }
  if (options.argumentPredicate !== undefined) {
    if (call.arguments === UNAVAILABLE) return false;
    const predicate = options.argumentPredicate;
    if (!callPredicate('argumentPredicate', () => predicate(call.arguments))) return false;
  }
  if (options.result !== undefined) {
    if (!matchValue(call.result, prepared.expectedResult, { partial: options.resultPartial })) return false;
  }
  if (options.status !== undefined && call.status !== options.status) return false;
  if (options.minLatencyMs !== undefined && (call.latencyMs === UNAVAILABLE || call.latencyMs < options.minLatencyMs)) {
    return false;
  }
  if (options.maxLatencyMs !== undefined && (call.latencyMs === UNAVAILABLE || call.latencyMs > options.maxLatencyMs)) {
    return false;
  }
  if (options.inputRounds !== undefined && call.inputRounds !== options.inputRounds) return false;
  if (prepared.turnId !== undefined && call.turnId !== prepared.turnId) return false;
  if (options.predicate !== undefined) {
    const predicate = options.predicate;
    if (!callPredicate('predicate', () => predicate(toolCallInfo(call)))) return false;
  }
  return true;
}

/** Servers a tool name was seen on (calls and discovery), for the ambiguity guard. */
function serversFor(tool: string, calls: readonly ToolCallCandidate[], views: readonly ViewLike[]): string[] {
  const servers = new Set<string>();
  for (const call of calls) {
    if (call.tool === tool && call.server !== UNAVAILABLE) servers.add(call.server);
  }
  for (const server of serversDiscoveringTool(views, tool)) servers.add(server);
  return [...servers].sort();
}

function criteriaOf(options: ToolCallOptions): Record<string, unknown> {
  const criteria: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(options)) {
    if (['server', 'count', 'minCount', 'maxCount', 'evidence'].includes(key) || value === undefined) continue;
    criteria[key] = value;
  }
  return criteria;
}

function otherEvidenceHint(all: readonly ViewLike[], evidence: string, seen: number): string {
  if (evidence === 'any') return '';
  const any = toolCallCandidates(all, 'any').length;
  return any > seen
    ? `\n${any - seen} more call(s) have no ${evidence} evidence; pass { evidence: 'any' } or { evidence: '${evidence === 'wire' ? 'reported' : 'wire'}' } to include them.`
    : '';
}

function assertToolCall(
  this: MatcherContext,
  scope: M3MatcherScope,
  received: unknown,
  toolOrOptions?: string | ToolCallOptions,
  maybeOptions?: ToolCallOptions,
): MatcherVerdict {
  const tool = typeof toolOrOptions === 'string' ? toolOrOptions : undefined;
  const rawOptions = typeof toolOrOptions === 'string' || toolOrOptions === undefined ? maybeOptions : toolOrOptions;
  if (toolOrOptions !== undefined && typeof toolOrOptions !== 'string' && maybeOptions !== undefined) {
    throw usageError(this, NAME, 'pass the tool name as a string, then the options object');
  }
  let options: ToolCallOptions;
  try {
    options = validateToolCallOptions(rawOptions);
  } catch (error) {
    if (error instanceof OptionError) throw usageError(this, NAME, error.message);
    throw error;
  }
  const label = tool === undefined ? (rawOptions ? 'options' : '') : rawOptions ? 'tool, options' : 'tool';
  const head = hint(this, NAME, label);
  const resolution = resolveSubject(received);
  requireTraceSubject(this, NAME, resolution, received);
  const negative = this.isNot === true || options.count === 0 || options.maxCount === 0;
  if (resolution.status === 'not_finalized') {
    return {
      pass: false,
      unusable: true,
      message: () => notFinalizedMessage(this, NAME, resolution.reason, negative, label),
    };
  }
  const evidence = options.evidence ?? 'wire';
  const calls = toolCallCandidates(resolution.views, evidence);
  const target = `${tool === undefined ? 'any tool' : scope.redactor.redactText(tool)}${
    options.server === undefined ? '' : ` on ${scope.redactor.redactText(options.server)}`
  }`;
  if (tool !== undefined && options.server === undefined) {
    const servers = serversFor(tool, calls, resolution.views);
    if (servers.length > 1) {
      return {
        pass: false,
        unusable: true,
        message: () =>
          `${head}\n\nambiguous serverless tool assertion: ${target} was seen on ${servers.length} servers ` +
          `(${servers.join(', ')}); pass { server: '<name>' } to say which one.\n\n` +
          `Calls that happened (${evidence} evidence):\n${describeCalls(calls, scope.redactor)}`,
      };
    }
  }
  let matched: ToolCallCandidate[];
  try {
    const prepared = prepare(options);
    matched = calls.filter((call) => matches(call, tool, options, prepared));
  } catch (error) {
    if (!(error instanceof PredicateFailure)) throw error;
    return { pass: false, unusable: true, message: () => `${head}\n\n${error.message}` };
  }
  const pass = countHolds(options, matched.length);
  const criteria = criteriaOf(options);
  const message = () => {
    const defaultCount =
      options.count === undefined && options.minCount === undefined && options.maxCount === undefined;
    const expectation =
      this.isNot && defaultCount
        ? `no call to ${target}`
        : `${this.isNot ? 'not ' : ''}${countPhrase(options)} to ${target}`;
    const lines = [`${head}\n`, `Expected: ${expectation}`];
    if (Object.keys(criteria).length > 0) {
      lines.push(`Matching: ${this.utils.printExpected(scope.safe(criteria))}`);
    }
    lines.push(
      `Received: ${this.utils.printReceived(matched.length)} matching ${matched.length === 1 ? 'call' : 'calls'} (${plural(calls.length, 'call')} in total)`,
    );
    if (this.isNot && matched.length > 0) {
      lines.push('', 'Matching calls:', describeCalls(matched, scope.redactor));
    }
    lines.push('', `Calls that happened (${evidence} evidence):`, describeCalls(calls, scope.redactor));
    return lines.join('\n') + otherEvidenceHint(resolution.views, evidence, calls.length);
  };
  return { pass, message };
}

/**
 * `expect(subject).toHaveToolCall(tool?, options?)`: a matching tool call exists in the subject's
 * finalized trace (or the count holds). A tool seen on two servers without `server` fails as ambiguous.
 */
export const toHaveToolCall = defineMatcher<[toolOrOptions?: string | ToolCallOptions, options?: ToolCallOptions]>(
  NAME,
  assertToolCall,
);
