import type AjvCore from 'ajv/dist/core';

/** A JSON Schema dialect the validator compiles. */
export type SchemaDialect = 'draft-07' | '2019-09' | '2020-12';

/** The dialect of a schema, or why the schema's `$schema` cannot be used. */
export type DialectChoice = { readonly dialect: SchemaDialect } | { readonly error: string };

// `$schema` URIs are compared without scheme, trailing `#` or trailing slash, because servers
// write both `http://json-schema.org/draft-07/schema#` and `https://json-schema.org/draft-07/schema`.
const DIALECTS: ReadonlyMap<string, SchemaDialect> = new Map([
  ['json-schema.org/draft-07/schema', 'draft-07'],
  ['json-schema.org/draft/2019-09/schema', '2019-09'],
  ['json-schema.org/draft/2020-12/schema', '2020-12'],
]);

const MAX_SHOWN_URI = 120;

/**
 * The dialect a schema's `$schema` names: draft-07 (what the official SDK's zod schemas declare),
 * 2019-09 or 2020-12, and 2020-12 when it names none (MCP 2025-11-25).
 */
export function chooseDialect(schema: unknown): DialectChoice {
  if (typeof schema !== 'object' || schema === null || !('$schema' in schema)) return { dialect: '2020-12' };
  const declared = (schema as { $schema?: unknown }).$schema;
  if (typeof declared !== 'string') return { error: 'the schema\'s "$schema" is not a string' };
  const key = declared
    .trim()
    .replace(/^https?:\/\//i, '')
    .replace(/#$/, '')
    .replace(/\/$/, '')
    .toLowerCase();
  const dialect = DIALECTS.get(key);
  if (dialect !== undefined) return { dialect };
  const shown = declared.length > MAX_SHOWN_URI ? `${declared.slice(0, MAX_SHOWN_URI)}…` : declared;
  return {
    error:
      `the schema names "$schema": ${JSON.stringify(shown)}, which is not a dialect the validator knows ` +
      '(draft-07, 2019-09 or 2020-12); declare one of those, or leave "$schema" out for 2020-12',
  };
}

/**
 * A new Ajv instance for a dialect, set up the way tool schemas need. Ajv is required here, when a
 * tool's schema is first checked, so importing sf-m3 does not load it.
 */
export function newAjv(dialect: SchemaDialect): AjvCore {
  // strict off: real servers use annotations and vendor keywords; formats are not asserted
  // because format validation needs a plugin the toolkit does not depend on.
  const options = { strict: false, allErrors: true, validateFormats: false, logger: false } as const;
  switch (dialect) {
    case 'draft-07':
      return new (require('ajv') as typeof import('ajv')).default(options);
    case '2019-09':
      return new (require('ajv/dist/2019') as typeof import('ajv/dist/2019')).default(options);
    case '2020-12':
      return new (require('ajv/dist/2020') as typeof import('ajv/dist/2020')).default(options);
  }
}

/**
 * The schema as Ajv compiles it: the root `$schema` is left out once the dialect is chosen, since
 * Ajv looks it up by exact URI and would refuse a spelling (https, no `#`) it did not register.
 */
export function withoutRootSchemaUri(schema: object | boolean): object | boolean {
  if (typeof schema === 'boolean' || !('$schema' in schema)) return schema;
  const { $schema: _ignored, ...rest } = schema as Record<string, unknown>;
  return rest;
}
