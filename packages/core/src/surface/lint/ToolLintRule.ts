import type { LintableTool } from './LintableTool';
import type { ToolListing } from './ToolListing';
import type { ToolLintRuleName, ToolLintViolation } from './ToolLintViolation';

/** What a rule sees besides the tools. */
export interface ToolLintContext {
  /** Earlier listings of the same server seen in this process, oldest first; compared with the tools linted. */
  readonly earlierListings: readonly ToolListing[];
  /** Every `tools/list` response in the listing client's trace, oldest first; compared with each other. */
  readonly traceListings: readonly ToolListing[];
}

/** One row of the rule table. */
export interface ToolLintRule {
  readonly name: ToolLintRuleName;
  /** What the rule checks, one line (printed in docs and usage errors). */
  readonly summary: string;
  check(tools: readonly LintableTool[], context: ToolLintContext): ToolLintViolation[];
}
