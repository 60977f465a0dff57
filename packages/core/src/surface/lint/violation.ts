import { describeSpan } from './textSpan';
import type { ToolLintRuleName, ToolLintSpan, ToolLintViolation } from './ToolLintViolation';

/**
 * A violation whose message names the tool, the rule and the span, then says what is wrong and how
 * to fix it: `tool "add" breaks model_directed_text at description[9..20] "<IMPORTANT>": ...`.
 */
export function violation(
  tool: string,
  rule: ToolLintRuleName,
  problem: string,
  span?: ToolLintSpan,
): ToolLintViolation {
  const where = span === undefined ? '' : ` at ${describeSpan(span)}`;
  return {
    tool,
    rule,
    message: `tool ${JSON.stringify(tool)} breaks ${rule}${where}: ${problem}`,
    ...(span !== undefined && { span }),
  };
}
