import type { ErrorObject, ValidateFunction } from 'ajv';
import type AjvCore from 'ajv/dist/core';
import { ModelValidationError } from '../errors';
import type { JsonObject } from '../json';
import { chooseDialect, newAjv, type SchemaDialect, withoutRootSchemaUri } from './schemaDialect';

/** Why a tool failed schema validation. */
export type SchemaValidationKind = 'invalid_arguments' | 'invalid_result' | 'invalid_schema';

/** One schema violation: where it happened and which keyword failed, never the data value. */
export interface SchemaViolation {
  /** JSON Pointer into the validated value, e.g. `/weight_kg`. */
  readonly instancePath: string;
  /** JSON Pointer into the schema, e.g. `#/properties/weight_kg/exclusiveMinimum`. */
  readonly schemaPath: string;
  readonly keyword: string;
  /** Ajv's message; it names the rule (`must be > 0`), not the value. */
  readonly message: string;
}

/** The part of an MCP tool description the validator reads. */
export interface ValidatableTool {
  readonly name: string;
  readonly inputSchema?: unknown;
  readonly outputSchema?: unknown;
}

/** The message every schema-validation failure starts with (contract §4). */
export const SCHEMA_VALIDATION_FAILED = 'tool JSON Schema validation failed';

const MAX_VIOLATIONS = 20;

type CompiledSchema = { readonly validate: ValidateFunction } | { readonly error: string };

/**
 * Validates tool arguments and structured results against the tool's JSON Schemas in the dialect
 * their `$schema` names (draft-07, 2019-09, 2020-12; 2020-12 when none), local `$ref` only: nothing
 * is ever fetched. Compiled validators are cached per schema, by object identity and by canonical
 * JSON, so a schema listed again is not recompiled.
 */
export class ToolSchemaValidator {
  private readonly byObject = new WeakMap<object, CompiledSchema>();
  private readonly byJson = new Map<string, CompiledSchema>();
  private readonly shared = new Map<SchemaDialect, AjvCore>();
  private compileCount = 0;

  /** How many schemas were compiled (tests use it to prove the cache works). */
  get compiledSchemas(): number {
    return this.compileCount;
  }

  /** Throws `ModelValidationError` (`invalid_arguments` / `invalid_schema`) when `args` do not fit. */
  validateArguments(tool: ValidatableTool, args: unknown): void {
    if (tool.inputSchema === undefined) return;
    this.check(tool.name, tool.inputSchema, args, 'invalid_arguments');
  }

  /** Throws `ModelValidationError` (`invalid_result` / `invalid_schema`) when `structuredContent` does not fit. */
  validateResult(tool: ValidatableTool, structuredContent: unknown, isError: boolean): void {
    if (tool.outputSchema === undefined || isError) return;
    if (structuredContent === undefined) {
      throw failure(tool.name, 'invalid_result', [
        {
          instancePath: '',
          schemaPath: '#',
          keyword: 'structuredContent',
          message: 'the tool declares an outputSchema but returned no structuredContent',
        },
      ]);
    }
    this.check(tool.name, tool.outputSchema, structuredContent, 'invalid_result');
  }

  private check(tool: string, schema: unknown, value: unknown, kind: 'invalid_arguments' | 'invalid_result'): void {
    const compiled = this.compiled(schema);
    if ('error' in compiled) {
      throw failure(tool, 'invalid_schema', [
        { instancePath: '', schemaPath: '#', keyword: 'schema', message: compiled.error },
      ]);
    }
    if (compiled.validate(value)) return;
    throw failure(tool, kind, (compiled.validate.errors ?? []).slice(0, MAX_VIOLATIONS).map(toViolation));
  }

  private compiled(schema: unknown): CompiledSchema {
    if (typeof schema === 'object' && schema !== null) {
      const hit = this.byObject.get(schema);
      if (hit !== undefined) return hit;
    }
    const key = canonicalJson(schema);
    let compiled = this.byJson.get(key);
    if (compiled === undefined) {
      compiled = this.compile(schema);
      this.byJson.set(key, compiled);
    }
    if (typeof schema === 'object' && schema !== null) this.byObject.set(schema, compiled);
    return compiled;
  }

  private compile(schema: unknown): CompiledSchema {
    if (typeof schema !== 'boolean' && (typeof schema !== 'object' || schema === null || Array.isArray(schema))) {
      return { error: 'the schema must be a JSON object or a boolean' };
    }
    const choice = chooseDialect(schema);
    if ('error' in choice) return choice;
    this.compileCount += 1;
    // A schema with its own $id is registered under that id, so it gets a private Ajv instance
    // (two tools may declare different schemas with the same $id).
    const hasId = typeof schema === 'object' && typeof (schema as { $id?: unknown }).$id === 'string';
    const ajv = hasId ? newAjv(choice.dialect) : this.sharedAjv(choice.dialect);
    try {
      return { validate: ajv.compile(withoutRootSchemaUri(schema as object | boolean)) };
    } catch (error) {
      return { error: describeCompileError(error, choice.dialect) };
    }
  }

  private sharedAjv(dialect: SchemaDialect): AjvCore {
    let ajv = this.shared.get(dialect);
    if (ajv === undefined) {
      ajv = newAjv(dialect);
      this.shared.set(dialect, ajv);
    }
    return ajv;
  }
}

function toViolation(error: ErrorObject): SchemaViolation {
  return {
    instancePath: error.instancePath,
    schemaPath: error.schemaPath,
    keyword: error.keyword,
    message: error.message ?? error.keyword,
  };
}

function describeCompileError(error: unknown, dialect: SchemaDialect): string {
  const missingRef = (error as { missingRef?: unknown }).missingRef;
  if (typeof missingRef === 'string') {
    return 'the schema has a $ref that is not local to it (remote references are never fetched)';
  }
  const message = error instanceof Error ? error.message : String(error);
  // Ajv's compile messages name keywords and schema paths; keep them short.
  return `the schema does not compile as JSON Schema ${dialect}: ${message.slice(0, 200)}`;
}

function failure(tool: string, kind: SchemaValidationKind, errors: SchemaViolation[]): ModelValidationError {
  const details: JsonObject = {
    operation: 'tools/call',
    tool,
    kind,
    errors: errors.map((e) => ({ ...e })),
  };
  return new ModelValidationError(`${SCHEMA_VALIDATION_FAILED}: ${summary(tool, kind, errors)}`, details);
}

/** `write_file: invalid_arguments: /path must be string (type)`: the first error, never a value. */
function summary(tool: string, kind: SchemaValidationKind, errors: readonly SchemaViolation[]): string {
  const first = errors[0];
  if (first === undefined) return `${tool}: ${kind}`;
  const where = first.instancePath === '' ? '' : `${first.instancePath} `;
  const more = errors.length > 1 ? ` (and ${errors.length - 1} more)` : '';
  return `${tool}: ${kind}: ${where}${first.message} (${first.keyword})${more}`;
}

/** JSON with object keys sorted, so equal schemas share one cache entry. */
function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return v;
    const sorted: Record<string, unknown> = {};
    for (const k of Object.keys(v as object).sort()) sorted[k] = (v as Record<string, unknown>)[k];
    return sorted;
  });
}
