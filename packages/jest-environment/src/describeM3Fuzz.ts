import { ModelValidationError } from '@sf-m3/core/internal';
import type { FuzzableTool, FuzzToolOptions, FuzzToolReport, MCPTestKit, ServerDefinition } from '@sf-m3/core';
import type { CollectedToolListing } from '@sf-m3/core/internal';
import type { DescribeM3Function } from './runtimeBridge';
import type { JestTestLike } from './testM3';

/** Options of `describe.m3.fuzz(server, options)` (contract §25). */
export interface M3FuzzOptions {
  /** The tools to fuzz, by name; default every tool the server lists. Needed for in-process servers to get a test per tool. */
  readonly tools?: readonly string[];
  /** Inputs per property and tool (valid, then invalid); default 100. */
  readonly runs?: number;
  /** fast-check seed; default `M3_FUZZ_SEED` (what `m3 test --seed N` sets), else a fresh one. */
  readonly seed?: number;
  /** Also send inputs that break the schema; default true. */
  readonly invalid?: boolean;
  /** How long one call may take before it counts as a hang; default 5 000 ms. */
  readonly timeoutMs?: number;
}

/** `describe.m3.fuzz`: one `describe.m3` suite per server, one Jest test per tool. */
export type DescribeM3Fuzz = (server: ServerDefinition, options?: M3FuzzOptions) => void;

/** The sandbox's fuzzer (from its own `@sf-m3/core`, so kits and errors are of one realm). */
export interface FuzzRuntime {
  fuzzTools(
    kit: MCPTestKit,
    server: ServerDefinition,
    tools: readonly FuzzableTool[],
    options: FuzzToolOptions,
  ): Promise<FuzzToolReport[]>;
  listToolsSync(server: unknown): CollectedToolListing;
  fuzzFailureMessage(failure: NonNullable<FuzzToolReport['valid']['failure']>, testPath: string | null): string;
  fuzzSeed(explicit: number | undefined): number;
}

/** What `describe.m3.fuzz` needs from the environment. */
export interface DescribeM3FuzzDependencies {
  readonly describeM3: DescribeM3Function;
  readonly test: JestTestLike;
  readonly fuzz: () => FuzzRuntime;
  readonly currentKit: () => unknown;
  /** The test file relative to the project root, for the reproduce line. */
  readonly testPath: string;
}

const KNOWN_OPTIONS = new Set(['tools', 'runs', 'seed', 'invalid', 'timeoutMs']);
const DEFAULT_RUNS = 100;
const DEFAULT_TIMEOUT_MS = 5_000;
/** A Jest timeout that only a server hanging past every per-call limit could reach. */
const MAX_TEST_TIMEOUT_MS = 3_600_000;

/**
 * Builds `describe.m3.fuzz`. Jest registers tests synchronously while the tool list needs a
 * connection, so the tools of a stdio or HTTP server are listed at collection in a child process
 * (`listToolsSync`): zero config, one test per tool (`tool <name>`). An in-process server lives in
 * the test's own process and cannot be listed synchronously: with `tools` it gets a test per named
 * tool, without them one test fuzzes every tool (each tool still records its own evaluations).
 */
export function createDescribeM3Fuzz(deps: DescribeM3FuzzDependencies): DescribeM3Fuzz {
  return (server, options = {}) => {
    const serverName = (server as { name?: unknown } | null)?.name;
    if (typeof serverName !== 'string' || serverName.length === 0) {
      throw new ModelValidationError(
        'describe.m3.fuzz(server, options) needs a server definition (StdioServer, HTTPServer, InProcessServer)',
      );
    }
    const checked = validateFuzzOptions(serverName, options);
    const runtime = deps.fuzz();
    // One seed per call, drawn at collection: every tool's inputs replay from it (printed on failure).
    const seed = runtime.fuzzSeed(checked.seed);
    const runs = checked.runs ?? DEFAULT_RUNS;
    const timeoutMs = checked.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const phases = checked.invalid === false ? 1 : 2;
    const testTimeout = Math.min(MAX_TEST_TIMEOUT_MS, timeoutMs * (runs * phases + 50));
    const toolOptions: FuzzToolOptions = {
      runs,
      seed,
      timeoutMs,
      ...(checked.invalid !== undefined && { invalid: checked.invalid }),
      testPath: deps.testPath,
    };
    const kit = (): MCPTestKit => {
      const current = deps.currentKit();
      if (current === undefined)
        throw new ModelValidationError('describe.m3.fuzz tests run only inside the sf-m3 environment');
      return current as MCPTestKit;
    };
    const fuzz = async (tools: readonly FuzzableTool[]): Promise<string[]> => {
      const reports = await runtime.fuzzTools(kit(), server, tools, toolOptions);
      return reports.flatMap((report) =>
        [report.valid, report.invalid].flatMap((phase) =>
          phase?.failure ? [runtime.fuzzFailureMessage(phase.failure, deps.testPath)] : [],
        ),
      );
    };
    deps.describeM3(`fuzz ${serverName}`, () => {
      const listing: CollectedToolListing | null =
        checked.tools !== undefined
          ? { tools: checked.tools.map((name) => ({ name })) }
          : (server as { kind?: unknown }).kind === 'in_process'
            ? null
            : runtime.listToolsSync(server);
      if (listing === null) {
        deps.test(
          'every tool (in-process server: listed when the test runs; pass tools for a test per tool)',
          async () => {
            failIf(await fuzz(await listTools(kit(), server)));
          },
          MAX_TEST_TIMEOUT_MS,
        );
        return;
      }
      if ('error' in listing) {
        deps.test('lists the tools to fuzz', () => failIf([listing.error]));
        return;
      }
      if (listing.tools.length === 0) {
        deps.test('lists the tools to fuzz', () => failIf([`server ${serverName} lists no tools: nothing to fuzz`]));
        return;
      }
      for (const listed of listing.tools) {
        deps.test(
          `tool ${listed.name}`,
          async () => {
            // Names given by the user carry no schema yet: fetch it from the server.
            const tool = 'inputSchema' in listed ? listed : await findTool(kit(), server, listed.name);
            failIf(await fuzz([tool]));
          },
          testTimeout,
        );
      }
    });
  };
}

async function listTools(kit: MCPTestKit, server: ServerDefinition): Promise<FuzzableTool[]> {
  const client = await kit.direct(server).connect();
  try {
    return await client.listAllTools();
  } finally {
    await client.close();
  }
}

async function findTool(kit: MCPTestKit, server: ServerDefinition, name: string): Promise<FuzzableTool> {
  const tools = await listTools(kit, server);
  const tool = tools.find((t) => t.name === name);
  if (tool === undefined) {
    throw new ModelValidationError(
      `describe.m3.fuzz: server ${server.name} has no tool ${name}; it lists ${tools.map((t) => t.name).join(', ') || 'no tools'}`,
    );
  }
  return tool;
}

/** Fails the test with the messages as they are (no stack: the message is the whole story). */
function failIf(messages: readonly string[]): void {
  if (messages.length === 0) return;
  const error = new Error(messages.join('\n\n'));
  error.stack = `Error: ${error.message}`;
  throw error;
}

/** Checks the options of `describe.m3.fuzz`; unknown keys are refused so typos surface. */
export function validateFuzzOptions(serverName: string, options: unknown): M3FuzzOptions {
  const where = `describe.m3.fuzz(${serverName}, options)`;
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new ModelValidationError(`${where}: options must be an object like { runs: 50 }`);
  }
  const unknown = Object.keys(options).filter((key) => !KNOWN_OPTIONS.has(key));
  if (unknown.length > 0) {
    throw new ModelValidationError(
      `${where}: unknown option ${unknown.join(', ')}; use tools, runs, seed, invalid or timeoutMs`,
      {
        unknown,
      },
    );
  }
  const { tools, runs, seed, invalid, timeoutMs } = options as Record<string, unknown>;
  if (
    tools !== undefined &&
    (!Array.isArray(tools) || tools.length === 0 || !tools.every((t) => typeof t === 'string' && t !== ''))
  ) {
    throw new ModelValidationError(`${where}: tools must be a non-empty list of tool names`);
  }
  for (const [key, value] of [
    ['runs', runs],
    ['timeoutMs', timeoutMs],
  ] as const) {
    if (value !== undefined && (typeof value !== 'number' || !Number.isInteger(value) || value < 1)) {
      throw new ModelValidationError(`${where}: ${key} must be a positive whole number`);
    }
  }
  if (seed !== undefined && (typeof seed !== 'number' || !Number.isSafeInteger(seed))) {
    throw new ModelValidationError(`${where}: seed must be a whole number (the seed a failure printed)`);
  }
  if (invalid !== undefined && typeof invalid !== 'boolean') {
    throw new ModelValidationError(`${where}: invalid must be true or false`);
  }
  return options as M3FuzzOptions;
}
