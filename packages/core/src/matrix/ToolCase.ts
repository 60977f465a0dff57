import { ModelValidationError } from '../errors';
import type { JsonObject } from '../json';
import { toJsonValue } from '../redaction/Redactor';
import { checkMatrixName } from './caseIds';

/** Options of `new ToolCase(...)`. */
export interface ToolCaseOptions {
  /** The MCP tool to call. */
  name: string;
  /** Logical id used in case ids (default: `name`); lets one tool appear twice with other arguments. */
  id?: string;
  /** Arguments of the call (default `{}`). */
  arguments?: Record<string, unknown>;
  /** A prompt that asks an agent to make this call (kept for agent tests; a direct cell ignores it). */
  prompt?: string;
}

/** One deterministic tool call a `ServerCase` owns (contract §13). Immutable; construction does no I/O. */
export class ToolCase {
  readonly name: string;
  /** Logical id used in case ids: `id`, else `name`. */
  readonly id: string;
  readonly arguments: Readonly<Record<string, unknown>>;
  readonly prompt: string | undefined;

  constructor(options: ToolCaseOptions) {
    if (typeof options !== 'object' || options === null) {
      throw new ModelValidationError(
        "ToolCase needs options, e.g. new ToolCase({ name: 'normalize_customer', arguments: { name: 'Ada' } })",
      );
    }
    const example = "new ToolCase({ name: 'normalize_customer', arguments: { name: 'Ada' } })";
    this.name = checkMatrixName(options.name, 'ToolCase name', example);
    this.id =
      options.id === undefined
        ? this.name
        : checkMatrixName(options.id, 'ToolCase id', "new ToolCase({ name: 'echo', id: 'echo-empty' })");
    const args = options.arguments ?? {};
    if (typeof args !== 'object' || args === null || Array.isArray(args)) {
      throw new ModelValidationError(
        `ToolCase '${this.id}' arguments must be an object of argument name → value, e.g. { name: 'Ada' }`,
      );
    }
    this.arguments = Object.freeze({ ...args });
    if (options.prompt !== undefined && (typeof options.prompt !== 'string' || options.prompt.trim() === '')) {
      throw new ModelValidationError(`ToolCase '${this.id}' prompt must be a non-empty string when given`);
    }
    this.prompt = options.prompt;
    Object.freeze(this);
  }

  /** JSON form (what the derived matrix id is computed from). */
  toJSON(): JsonObject {
    return {
      name: this.name,
      id: this.id,
      arguments: toJsonValue(this.arguments),
      ...(this.prompt !== undefined && { prompt: this.prompt }),
    };
  }
}
