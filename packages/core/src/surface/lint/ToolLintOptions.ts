import { M3Error } from '../../errors';
import { TOOL_LINT_RULES, type ToolLintRuleName, type ToolLintViolation } from './ToolLintViolation';

/** A known finding the lint accepts: every field given must match the violation. */
export interface ToolLintAllowance {
  readonly rule: ToolLintRuleName;
  /** The tool's name; every tool when left out. */
  readonly tool?: string;
  /** Text the violation's span must contain (as printed, invisible characters as `\u{...}`). */
  readonly text?: string;
}

/** Options of `toPassToolLint` (contract §25). */
export interface ToolLintOptions {
  /** Rules switched `off` (every rule is `error` by default). */
  readonly rules?: Partial<Record<ToolLintRuleName, 'off' | 'error'>>;
  /** Known findings that do not fail the lint (listed as allowed in the message). */
  readonly allow?: readonly ToolLintAllowance[];
}

const RULE_NAMES: ReadonlySet<string> = new Set(TOOL_LINT_RULES);
const ruleList = TOOL_LINT_RULES.join(', ');

function bad(problem: string): M3Error {
  return new M3Error('invalid_lint_options', `toPassToolLint options: ${problem}`);
}

/** Checks options given at run time (from JavaScript, anything can arrive); throws naming the fix. */
export function checkToolLintOptions(options: unknown): ToolLintOptions {
  if (options === undefined) return {};
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw bad('give an object { rules?, allow? }');
  }
  const { rules, allow, ...rest } = options as Record<string, unknown>;
  const unknownKeys = Object.keys(rest);
  if (unknownKeys.length > 0)
    throw bad(`unknown option ${JSON.stringify(unknownKeys[0])}; the options are rules and allow`);
  if (rules !== undefined) {
    if (typeof rules !== 'object' || rules === null || Array.isArray(rules)) {
      throw bad(`rules must be an object such as { model_directed_text: 'off' }`);
    }
    for (const [name, level] of Object.entries(rules)) {
      if (!RULE_NAMES.has(name)) throw bad(`unknown rule ${JSON.stringify(name)} in rules; the rules are ${ruleList}`);
      if (level !== 'off' && level !== 'error') throw bad(`rules.${name} must be 'off' or 'error'`);
    }
  }
  if (allow !== undefined) {
    if (!Array.isArray(allow)) throw bad('allow must be an array of { rule, tool?, text? }');
    allow.forEach((entry: unknown, i) => {
      const e = entry as Record<string, unknown> | null;
      if (typeof e !== 'object' || e === null || typeof e.rule !== 'string' || !RULE_NAMES.has(e.rule)) {
        throw bad(`allow[${i}] needs a rule, one of ${ruleList}`);
      }
      if (e.tool !== undefined && typeof e.tool !== 'string') throw bad(`allow[${i}].tool must be a string`);
      if (e.text !== undefined && typeof e.text !== 'string') throw bad(`allow[${i}].text must be a string`);
    });
  }
  return options as ToolLintOptions;
}

/** True when an allowance covers the violation. */
export function isAllowed(v: ToolLintViolation, allow: readonly ToolLintAllowance[] | undefined): boolean {
  return (allow ?? []).some(
    (a) =>
      a.rule === v.rule &&
      (a.tool === undefined || a.tool === v.tool) &&
      (a.text === undefined || (v.span !== undefined && v.span.text.includes(a.text))),
  );
}
