import { chooseDialect, newAjv, withoutRootSchemaUri } from '../../client/schemaDialect';

/**
 * Why `schema` does not compile with core's Ajv setup (the one `validateSchemas` uses: the dialect
 * its `$schema` names, local `$ref` only), or null when it compiles. Ajv loads on first call.
 */
export function schemaCompileError(schema: unknown): string | null {
  if (typeof schema !== 'boolean' && (typeof schema !== 'object' || schema === null || Array.isArray(schema))) {
    return 'the schema must be a JSON object or a boolean';
  }
  const choice = chooseDialect(schema);
  if ('error' in choice) return choice.error;
  try {
    newAjv(choice.dialect).compile(withoutRootSchemaUri(schema as object | boolean));
    return null;
  } catch (error) {
    if (typeof (error as { missingRef?: unknown }).missingRef === 'string') {
      return 'the schema has a $ref that is not local to it (remote references are never fetched)';
    }
    const message = error instanceof Error ? error.message : String(error);
    return `the schema does not compile as JSON Schema ${choice.dialect}: ${message.slice(0, 200)}`;
  }
}
