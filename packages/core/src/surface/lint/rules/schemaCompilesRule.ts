import { schemaCompileError } from '../compileSchema';
import { toolLabel } from '../LintableTool';
import type { ToolLintRule } from '../ToolLintRule';
import type { ToolLintViolation } from '../ToolLintViolation';
import { violation } from '../violation';

/**
 * `schema_compiles`: the inputSchema and the outputSchema (when declared) compile with core's Ajv,
 * so `validateSchemas`, fuzzing and clients can use them. A missing inputSchema is input_schema_type's.
 */
export const schemaCompilesRule: ToolLintRule = {
  name: 'schema_compiles',
  summary: 'inputSchema and outputSchema compile as JSON Schema (core Ajv, local $ref only)',
  check(tools) {
    const out: ToolLintViolation[] = [];
    tools.forEach((tool, index) => {
      for (const field of ['inputSchema', 'outputSchema'] as const) {
        const schema = tool[field];
        if (schema === undefined) continue;
        const error = schemaCompileError(schema);
        if (error === null) continue;
        out.push(
          violation(
            toolLabel(tool, index),
            'schema_compiles',
            `the ${field} does not compile: ${error}; fix the schema`,
          ),
        );
      }
    });
    return out;
  },
};
