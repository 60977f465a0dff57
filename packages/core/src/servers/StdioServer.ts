import { validateProtocolSetting, type ProtocolSetting } from './protocolSetting';
import { basename, isAbsolute } from 'node:path';
import { ModelValidationError } from '../errors';
import type { JsonObject } from '../json';
import { isSensitiveName } from '../redaction/Redactor';
import { definitionCanaries, redactCommandLine, redactDefinitionText } from './redactCommandLine';
import {
  checkPlainString,
  describeConfiguredValues,
  validateConfiguredValues,
  validateServerName,
  type ConfiguredValue,
  type ServerDescription,
} from './ServerDefinition';

/** Options of a `StdioServer`. */
export interface StdioServerOptions {
  /** Binding name used in traces and assertions. */
  name: string;
  /** The executable to spawn (looked up on PATH). */
  command: string;
  args?: string[];
  /** Set over a minimal inherited environment (PATH, HOME and the platform basics). */
  env?: Record<string, ConfiguredValue>;
  /** Absolute working directory; it must exist when the client connects. */
  cwd?: string;
  /** How the connection picks its protocol era: `'auto'` (default), `'legacy'` or a revision to pin (contract §23). */
  protocol?: ProtocolSetting;
}

/**
 * An MCP server the kit starts as a child process speaking stdio. Constructing one does no I/O;
 * every connection spawns a fresh child, which is reaped when the connection closes.
 */
export class StdioServer {
  readonly kind = 'stdio' as const;
  readonly name: string;
  readonly command: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, ConfiguredValue>>;
  readonly cwd: string | undefined;
  /** How connections pick their protocol era (contract §23); `kit.direct(server, { protocol })` overrides it. */
  readonly protocol: ProtocolSetting;

  constructor(options: StdioServerOptions) {
    if (typeof options !== 'object' || options === null) {
      throw new ModelValidationError(
        'StdioServer needs options: new StdioServer({ name, command, args?, env?, cwd? })',
      );
    }
    this.name = validateServerName(options.name, 'StdioServer');
    if (typeof options.command !== 'string' || options.command.trim() === '') {
      throw new ModelValidationError(`StdioServer ${this.name} needs a non-empty command, e.g. command: 'node'`);
    }
    checkPlainString(options.command, `StdioServer ${this.name} command`, false);
    this.command = options.command;
    const args = options.args ?? [];
    if (!Array.isArray(args) || args.some((a) => typeof a !== 'string')) {
      throw new ModelValidationError(`StdioServer ${this.name} args must be a list of strings`);
    }
    args.forEach((a, i) => checkPlainString(a, `StdioServer ${this.name} argument ${i}`, false));
    this.args = Object.freeze([...args]);
    this.env = validateConfiguredValues(options.env, 'env', `StdioServer ${this.name}`);
    if (options.cwd !== undefined) {
      if (typeof options.cwd !== 'string' || options.cwd === '') {
        throw new ModelValidationError(`StdioServer ${this.name} cwd must be a non-empty absolute path`);
      }
      checkPlainString(options.cwd, `StdioServer ${this.name} cwd`, false);
      if (!isAbsolute(options.cwd)) {
        throw new ModelValidationError(
          `StdioServer ${this.name} cwd must be an absolute path, got ${JSON.stringify(options.cwd)}: ` +
            'resolve it first, e.g. path.resolve(__dirname, ...)',
        );
      }
    }
    this.cwd = options.cwd;
    this.protocol = validateProtocolSetting(options.protocol, `StdioServer ${this.name}`) ?? 'auto';
    Object.freeze(this);
  }

  /** Name, transport and the executable's basename (never the command line). */
  describe(): ServerDescription {
    return {
      name: this.name,
      transport: 'stdio',
      target: redactDefinitionText(basename(this.command), definitionCanaries(this.env)),
    };
  }

  /**
   * JSON form: secret references by name, sensitive env values hidden, and the command line with
   * every secret-looking value replaced by `[REDACTED]` (see `redactCommandLine`), and the protocol
   * era setting when it is not the default `'auto'` (matrix ids of unpinned servers stay).
   */
  toJSON(): JsonObject {
    const canaries = definitionCanaries(this.env);
    return {
      kind: this.kind,
      name: this.name,
      command: redactDefinitionText(this.command, canaries),
      args: redactCommandLine(this.args, canaries),
      env: describeConfiguredValues(this.env, isSensitiveName),
      ...(this.cwd !== undefined && { cwd: redactDefinitionText(this.cwd, canaries) }),
      ...(this.protocol !== 'auto' && { protocol: this.protocol }),
    };
  }
}
