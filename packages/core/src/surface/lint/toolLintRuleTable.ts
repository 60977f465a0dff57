import { duplicateNameRule } from './rules/duplicateNameRule';
import { hiddenCharactersRule } from './rules/hiddenCharactersRule';
import { inputSchemaTypeRule } from './rules/inputSchemaTypeRule';
import { missingDescriptionRule } from './rules/missingDescriptionRule';
import { modelDirectedTextRule } from './rules/modelDirectedTextRule';
import { schemaCompilesRule } from './rules/schemaCompilesRule';
import { silentRedefinitionRule } from './rules/silentRedefinitionRule';
import { toolNameRule } from './rules/toolNameRule';
import type { ToolLintRule } from './ToolLintRule';

/** The rule table of `toPassToolLint` (contract §25), in `TOOL_LINT_RULES` order. */
export function toolLintRuleTable(): readonly ToolLintRule[] {
  return RULE_TABLE;
}

const RULE_TABLE: readonly ToolLintRule[] = [
  toolNameRule,
  duplicateNameRule,
  missingDescriptionRule,
  hiddenCharactersRule,
  modelDirectedTextRule,
  inputSchemaTypeRule,
  schemaCompilesRule,
  silentRedefinitionRule,
];
