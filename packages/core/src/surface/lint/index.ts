// Tool lint (contract §25 "Lint"): the rule table, `lintTools`, and the listing memory behind silent_redefinition.
export { TOOL_LINT_RULES } from './ToolLintViolation';
export type { ToolLintRuleName, ToolLintSpan, ToolLintViolation } from './ToolLintViolation';
export type { ToolLintAllowance, ToolLintOptions } from './ToolLintOptions';
export { checkToolLintOptions } from './ToolLintOptions';
export { lintTools } from './lintTools';
export type { ToolLintHistory, ToolLintReport } from './lintTools';
export { toolLintRuleTable } from './toolLintRuleTable';
export type { ToolLintRule, ToolLintContext } from './ToolLintRule';
export type { ToolListing } from './ToolListing';
export { MODEL_DIRECTED_PATTERNS } from './modelDirectedPatterns';
export type { ModelDirectedPattern } from './modelDirectedPatterns';
export { TOOL_LISTING_MEMORY, ToolListingMemory, toolListingMemory } from './ToolListingMemory';
export { linkToolListing, toolListingOrigin } from './toolListingLink';
export type { ToolListingOrigin } from './toolListingLink';
export { traceToolListings } from './traceToolListings';
