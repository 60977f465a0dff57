import { isJsonObject, type LintableTool } from './LintableTool';
import { checkToolLintOptions, isAllowed } from './ToolLintOptions';
import { toolLintRuleTable } from './toolLintRuleTable';
import type { ToolListing } from './ToolListing';
import type { ToolLintViolation } from './ToolLintViolation';

/** What `lintTools` found: the violations that fail, and the ones `allow` accepted. */
export interface ToolLintReport {
  readonly violations: readonly ToolLintViolation[];
  readonly allowed: readonly ToolLintViolation[];
  /** The rules that ran. */
  readonly rules: readonly string[];
}

/** Listings to compare for `silent_redefinition`. */
export interface ToolLintHistory {
  readonly earlierListings?: readonly ToolListing[];
  readonly traceListings?: readonly ToolListing[];
}

/**
 * Lints a server's tools with the rule table of contract §25. Pure and offline: it reads the tools
 * and the listings it is given and sends nothing anywhere. Throws `M3Error` on bad options.
 */
export function lintTools(tools: readonly unknown[], options?: unknown, history: ToolLintHistory = {}): ToolLintReport {
  const checked = checkToolLintOptions(options);
  const lintable: LintableTool[] = tools.map((t) => (isJsonObject(t) ? t : {}));
  const context = { earlierListings: history.earlierListings ?? [], traceListings: history.traceListings ?? [] };
  const violations: ToolLintViolation[] = [];
  const allowed: ToolLintViolation[] = [];
  const rules: string[] = [];
  for (const rule of toolLintRuleTable()) {
    if (checked.rules?.[rule.name] === 'off') continue;
    rules.push(rule.name);
    for (const v of rule.check(lintable, context)) (isAllowed(v, checked.allow) ? allowed : violations).push(v);
  }
  return { violations, allowed, rules };
}
