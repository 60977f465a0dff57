import { isJsonObject, toolLabel } from '../LintableTool';
import type { ToolLintRule } from '../ToolLintRule';
import type { ToolLintViolation } from '../ToolLintViolation';
import { violation } from '../violation';

/** `input_schema_type`: every tool has an `inputSchema` object whose `type` is `"object"` (MCP requires it). */
export const inputSchemaTypeRule: ToolLintRule = {
  name: 'input_schema_type',
  summary: 'inputSchema is a JSON Schema object with type "object"',
  check(tools) {
    const out: ToolLintViolation[] = [];
    tools.forEach((tool, index) => {
      const schema = tool.inputSchema;
      let problem: string | null = null;
      if (schema === undefined) problem = 'the tool has no inputSchema';
      else if (!isJsonObject(schema)) problem = 'the inputSchema is not a JSON object';
      else if (schema.type !== 'object') {
        problem =
          schema.type === undefined
            ? 'the inputSchema has no "type"'
            : `the inputSchema has "type": ${JSON.stringify(schema.type)}`;
      }
      if (problem === null) return;
      out.push(
        violation(
          toolLabel(tool, index),
          'input_schema_type',
          `${problem}; MCP tool arguments are an object, so declare { "type": "object", "properties": { ... } } ` +
            '(an empty "properties" for a tool without arguments)',
        ),
      );
    });
    return out;
  },
};
