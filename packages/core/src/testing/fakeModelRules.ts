import { ModelValidationError } from '../errors';
import type { FakeChatReply } from './fakeModelReply';
import {
  lastUserText,
  offeredTool,
  toolNameMatches,
  trailingToolResults,
  type FakeModelDialect,
  type FakeModelRequest,
} from './fakeModelRequest';

/** A reply, or a function choosing one from the request (e.g. answer with the tool result it carries). */
export type FakeChatReplySource = FakeChatReply | ((request: FakeModelRequest) => FakeChatReply);

/** What a rule looks at; every condition given must hold. `{}` matches every model request. */
export interface FakeRequestMatch {
  /** The last text the user typed (tool-result-only messages skipped): a substring, or a pattern. */
  readonly lastUserText?: string | RegExp;
  /**
   * `true`: the request answers tool calls (its last message carries tool results); `false`: it does not;
   * a tool name: it carries a result of that tool (as named by the dialect or by the matching call), the name
   * matched as `tool` is (exactly, or as its last part after `_`, `.` or `/`).
   */
  readonly afterToolResult?: boolean | string;
  /** The model the request names: exactly, or a pattern. */
  readonly model?: string | RegExp;
  readonly dialect?: FakeModelDialect;
  /**
   * A tool with this name is offered — tells an agent's main loop from its side calls. A string matches the
   * name exactly or as its last part after `_`, `.` or `/` (agents prefix MCP tools: `mcp__example__shipping_quote`,
   * `mcp_example_shipping_quote`, `example__shipping_quote`); a pattern is tested as it is.
   */
  readonly tool?: string | RegExp;
}

/** Options of a rule. */
export interface FakeRuleOptions {
  /** How many requests the rule answers before it stops matching; default unlimited. */
  readonly times?: number;
}

/** A content-matched rule and how often it has answered. */
export interface FakeRule {
  readonly match: FakeRequestMatch;
  readonly reply: FakeChatReplySource;
  /** Remaining answers, Infinity when unlimited. */
  remaining: number;
  /** Requests it answered. */
  used: number;
}

function test(expected: string | RegExp, actual: string, whole: boolean): boolean {
  if (typeof expected === 'string') return whole ? actual === expected : actual.includes(expected);
  expected.lastIndex = 0; // a global or sticky pattern keeps state between calls
  return expected.test(actual);
}

/** Whether a request satisfies every condition of a match. */
export function requestMatches(match: FakeRequestMatch, request: FakeModelRequest): boolean {
  if (match.dialect !== undefined && match.dialect !== request.dialect) return false;
  if (match.model !== undefined && !test(match.model, request.model ?? '', true)) return false;
  if (match.tool !== undefined && offeredTool(request, match.tool) === null) return false;
  if (match.lastUserText !== undefined && !test(match.lastUserText, lastUserText(request), false)) return false;
  if (match.afterToolResult !== undefined) {
    const results = trailingToolResults(request);
    if (typeof match.afterToolResult === 'string') {
      const name = match.afterToolResult;
      if (!results.some((r) => r.name !== null && toolNameMatches(r.name, name))) return false;
    } else if (match.afterToolResult !== results.length > 0) return false;
  }
  return true;
}

/** The rules of a fake model server, tried in the order they were added; the first match with answers left wins. */
export class FakeRuleBook {
  readonly rules: FakeRule[] = [];

  /** Adds a rule. */
  add(match: FakeRequestMatch, reply: FakeChatReplySource, options: FakeRuleOptions = {}): FakeRule {
    const times = options.times ?? Infinity;
    if (!(times >= 1))
      throw new ModelValidationError(
        `a fake model rule's times must be 1 or more (got ${String(options.times)}): omit it for no limit`,
        { option: 'times' },
      );
    const rule: FakeRule = { match, reply, remaining: times, used: 0 };
    this.rules.push(rule);
    return rule;
  }

  /** The first rule with answers left that matches the request, consumed once; null when none does. */
  take(request: FakeModelRequest): { rule: FakeRule; index: number } | null {
    const index = this.rules.findIndex((rule) => rule.remaining > 0 && requestMatches(rule.match, request));
    if (index < 0) return null;
    const rule = this.rules[index]!;
    rule.remaining -= 1;
    rule.used += 1;
    return { rule, index };
  }
}
