import { ModelValidationError } from '../errors';
import type { JsonObject } from '../json';
import { isServerDefinition, type ServerDefinition } from '../servers/ServerDefinition';
import { checkMatrixName } from './caseIds';
import { ToolCase } from './ToolCase';

/** Options of `new ServerCase(...)`. */
export interface ServerCaseOptions {
  /** The name the matrix knows the server by (first part of every case id). */
  name: string;
  /** Where the tools are called: a `StdioServer`, `HTTPServer` or `InProcessServer`. */
  server: ServerDefinition;
  /** The tool calls to make on it (at least one; logical ids unique). */
  tools: ToolCase[];
}

/** A server and the tool calls a matrix makes on it (contract §13). Immutable; construction does no I/O. */
export class ServerCase {
  readonly name: string;
  readonly server: ServerDefinition;
  readonly tools: readonly ToolCase[];

  constructor(options: ServerCaseOptions) {
    const example = "new ServerCase({ name: 'catalog', server, tools: [new ToolCase({ name: 'search' })] })";
    if (typeof options !== 'object' || options === null) {
      throw new ModelValidationError(`ServerCase needs options, e.g. ${example}`);
    }
    this.name = checkMatrixName(options.name, 'ServerCase name', example);
    if (!isServerDefinition(options.server)) {
      throw new ModelValidationError(
        `ServerCase '${this.name}' needs a server: a StdioServer, HTTPServer or InProcessServer`,
      );
    }
    this.server = options.server;
    if (!Array.isArray(options.tools) || options.tools.length === 0) {
      throw new ModelValidationError(
        `ServerCase '${this.name}' needs at least one tool: tools: [new ToolCase({ name: 'search' })]`,
      );
    }
    const seen = new Map<string, number>();
    options.tools.forEach((tool, index) => {
      if (!(tool instanceof ToolCase)) {
        throw new ModelValidationError(
          `ServerCase '${this.name}' tools[${index}] is not a ToolCase: wrap it in new ToolCase({ name, arguments })`,
        );
      }
      const previous = seen.get(tool.id);
      if (previous !== undefined) {
        throw new ModelValidationError(
          `ServerCase '${this.name}' has the tool id '${tool.id}' twice (tools[${previous}] and tools[${index}]): ` +
            `give one of them an id, e.g. new ToolCase({ name: '${tool.name}', id: '${tool.id}-2', ... })`,
          { server: this.name, tool: tool.id },
        );
      }
      seen.set(tool.id, index);
    });
    this.tools = Object.freeze([...options.tools]);
    Object.freeze(this);
  }

  /** The tool case with logical id `id`; throws `ModelValidationError` when there is none. */
  tool(id: string): ToolCase {
    const found = this.tools.find((t) => t.id === id);
    if (found === undefined) {
      throw new ModelValidationError(
        `tool '${id}' was not found on server case '${this.name}': it has ${this.tools.map((t) => `'${t.id}'`).join(', ')}`,
      );
    }
    return found;
  }

  /** JSON form (what the derived matrix id is computed from); never secret values. */
  toJSON(): JsonObject {
    return { name: this.name, server: this.server.toJSON(), tools: this.tools.map((t) => t.toJSON()) };
  }
}
