/** The rules of `toPassToolLint` (contract §25 "Lint"), in the order they are checked. */
export const TOOL_LINT_RULES = [
  'tool_name',
  'duplicate_name',
  'missing_description',
  'hidden_characters',
  'model_directed_text',
  'input_schema_type',
  'schema_compiles',
  'silent_redefinition',
] as const;

/** One lint rule's name. */
export type ToolLintRuleName = (typeof TOOL_LINT_RULES)[number];

/** The offending text of a violation: where it is in the tool and what it says. */
export interface ToolLintSpan {
  /** Path of the string inside the tool, e.g. `description` or `inputSchema.properties.note.description`. */
  readonly field: string;
  /** Offset of the first offending UTF-16 code unit in that string. */
  readonly start: number;
  /** Offset just past the offending text. */
  readonly end: number;
  /** The offending text, with invisible characters written as `\u{...}` escapes so it can be printed. */
  readonly text: string;
}

/** One rule broken by one tool. */
export interface ToolLintViolation {
  /** The tool's name as listed (or `#<index>` when it has no usable name). */
  readonly tool: string;
  readonly rule: ToolLintRuleName;
  /** One sentence naming the tool, the rule, the span and the fix. */
  readonly message: string;
  readonly span?: ToolLintSpan;
}
