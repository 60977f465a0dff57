import { ModelValidationError } from '../../errors';
import { ToolSchemaValidator } from '../../client/ToolSchemaValidator';
import type { MCPTestKit } from '../../kit/MCPTestKit';
import type { ServerDefinition } from '../../servers/ServerDefinition';
import {
  FUZZ_SEED_ENV,
  type FuzzFailure,
  type FuzzPhase,
  type FuzzProblemKind,
  fuzzFailureMessage,
} from './FuzzFailure';
import { type CallOutcome, FuzzSession } from './FuzzSession';
import { inputArbitraries } from './inputArbitraries';

/** The part of a listed tool the fuzzer reads. */
export interface FuzzableTool {
  readonly name: string;
  readonly inputSchema?: unknown;
  readonly outputSchema?: unknown;
}

/** Options of one tool's fuzz run (contract §25). */
export interface FuzzToolOptions {
  /** Inputs per property (valid, then invalid); default 100. */
  readonly runs?: number;
  /** fast-check seed; default `M3_FUZZ_SEED`, else a fresh one (printed on failure). */
  readonly seed?: number;
  /** Also send inputs that break the schema; default true. */
  readonly invalid?: boolean;
  /** How long one call may take before it counts as a hang; default 5 000 ms. */
  readonly timeoutMs?: number;
  /** The test file, named in the reproduce line of a failure. */
  readonly testPath?: string | null;
}

/** What one property of one tool's fuzz run found. */
export interface FuzzPhaseReport {
  readonly phase: FuzzPhase;
  /** Inputs sent (skipped ones excluded). */
  readonly runs: number;
  /** Generated inputs ajv disagreed with (a keyword the generator does not honour), not sent. */
  readonly skipped: number;
  readonly failure: FuzzFailure | null;
  /** Why the phase could not run in full (nothing to break, too many skipped inputs), or null. */
  readonly note: string | null;
}

/** One tool's fuzz run. */
export interface FuzzToolReport {
  readonly tool: string;
  readonly server: string;
  readonly seed: number;
  readonly valid: FuzzPhaseReport;
  /** Null when `invalid: false`. */
  readonly invalid: FuzzPhaseReport | null;
  /** Schema features the generators did not honour. */
  readonly notes: readonly string[];
  /** Connections opened again after a crash or a hang. */
  readonly reconnects: number;
}

/** The default inputs per property. */
export const DEFAULT_FUZZ_RUNS = 100;
/** The default per-call limit before a call counts as a hang. */
export const DEFAULT_FUZZ_TIMEOUT_MS = 5_000;

/** The seed to use: the explicit one, else `M3_FUZZ_SEED`, else a fresh one. */
export function fuzzSeed(explicit: number | undefined, env: NodeJS.ProcessEnv = process.env): number {
  if (explicit !== undefined) return checkSeed(explicit, 'seed');
  const fromEnv = env[FUZZ_SEED_ENV];
  if (fromEnv !== undefined && fromEnv.trim() !== '') return checkSeed(Number(fromEnv), FUZZ_SEED_ENV);
  return (Date.now() ^ Math.floor(Math.random() * 0x7fffffff)) | 0;
}

function checkSeed(seed: number, source: string): number {
  if (!Number.isSafeInteger(seed)) {
    throw new ModelValidationError(`fuzz ${source} must be a whole number (the seed a failure printed), not ${seed}`);
  }
  return seed | 0;
}

/** Thrown inside a property so fast-check shrinks towards the smallest input that still fails. */
class FuzzProblem extends Error {
  constructor(
    readonly kind: FuzzProblemKind,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Fuzzes one tool (contract §25): `runs` valid inputs must each get a result (isError allowed)
 * whose `structuredContent` fits the `outputSchema`; `runs` invalid inputs must each get
 * `isError: true` or JSON-RPC -32602. A crash, an exit or a call past `timeoutMs` fails either
 * property. A failure is shrunk by fast-check. Records `m3.fuzz.valid` and `m3.fuzz.invalid`.
 */
export async function fuzzTool(
  kit: MCPTestKit,
  server: ServerDefinition,
  tool: FuzzableTool,
  options: FuzzToolOptions = {},
): Promise<FuzzToolReport> {
  const [report] = await fuzzTools(kit, server, [tool], options);
  return report!;
}

/**
 * Fuzzes several tools of one server in turn over one shared connection (reconnected only after a
 * crash or a hang), which saves a server start per tool. Each tool records its own evaluations.
 */
export async function fuzzTools(
  kit: MCPTestKit,
  server: ServerDefinition,
  tools: readonly FuzzableTool[],
  options: FuzzToolOptions = {},
): Promise<FuzzToolReport[]> {
  const runs = options.runs ?? DEFAULT_FUZZ_RUNS;
  if (!Number.isInteger(runs) || runs < 1) {
    throw new ModelValidationError(`fuzz runs must be a positive whole number, not ${runs}`);
  }
  const timeoutMs = options.timeoutMs ?? DEFAULT_FUZZ_TIMEOUT_MS;
  const seed = fuzzSeed(options.seed);
  const session = new FuzzSession(kit, server, timeoutMs);
  try {
    const reports: FuzzToolReport[] = [];
    for (const tool of tools) {
      reports.push(await fuzzOneTool(kit, server, tool, session, { ...options, runs, seed, timeoutMs }));
    }
    return reports;
  } finally {
    await session.close();
  }
}

type ResolvedOptions = FuzzToolOptions & { readonly runs: number; readonly seed: number; readonly timeoutMs: number };

async function fuzzOneTool(
  kit: MCPTestKit,
  server: ServerDefinition,
  tool: FuzzableTool,
  session: FuzzSession,
  options: ResolvedOptions,
): Promise<FuzzToolReport> {
  const { runs, seed, timeoutMs } = options;
  const arbitraries = inputArbitraries(tool.inputSchema);
  const validator = new ToolSchemaValidator();
  const context: PhaseContext = { tool, validator, session, runs, seed, timeoutMs };
  const firstExecution = session.executionIds.length;
  const reconnectsBefore = session.reconnectCount;
  const valid = await runPhase(context, 'valid', arbitraries.valid);
  const invalid =
    options.invalid === false
      ? null
      : arbitraries.invalid === null
        ? {
            phase: 'invalid' as const,
            runs: 0,
            skipped: 0,
            failure: null,
            note: 'the inputSchema leaves nothing to break',
          }
        : await runPhase(context, 'invalid', arbitraries.invalid);
  const report: FuzzToolReport = {
    tool: tool.name,
    server: server.name,
    seed,
    valid,
    invalid,
    notes: arbitraries.notes,
    reconnects: session.reconnectCount - reconnectsBefore,
  };
  // The evaluations belong to the connection the tool's first input went over.
  const executionId =
    session.executionIds[Math.max(0, Math.min(firstExecution, session.executionIds.length - 1))] ?? null;
  for (const phase of [valid, invalid]) {
    if (phase === null) continue;
    await kit.recordCheck({
      evaluator: `m3.fuzz.${phase.phase}`,
      passed: phase.failure === null,
      rationale:
        phase.failure === null ? passRationale(phase) : fuzzFailureMessage(phase.failure, options.testPath ?? null),
      subject: { tool: tool.name },
      executionId,
      metadata: {
        tool: tool.name,
        server: server.name,
        seed,
        runs: phase.runs,
        skipped: phase.skipped,
        ...(phase.failure !== null && { problem: phase.failure.kind }),
        ...(arbitraries.notes.length > 0 && { notGenerated: [...arbitraries.notes] }),
      },
    });
  }
  return report;
}

function passRationale(phase: FuzzPhaseReport): string {
  const skipped = phase.skipped > 0 ? ` (${phase.skipped} generated input(s) skipped: ajv disagreed)` : '';
  return `ok: ${phase.runs} ${phase.phase} input(s)${skipped}${phase.note === null ? '' : `; ${phase.note}`}`;
}

interface PhaseContext {
  readonly tool: FuzzableTool;
  readonly validator: ToolSchemaValidator;
  readonly session: FuzzSession;
  readonly runs: number;
  readonly seed: number;
  readonly timeoutMs: number;
}

async function runPhase(
  context: PhaseContext,
  phase: FuzzPhase,
  arbitrary: import('fast-check').Arbitrary<Record<string, unknown>>,
): Promise<FuzzPhaseReport> {
  const fc: typeof import('fast-check') = require('fast-check');
  const { tool, validator, session } = context;
  let sent = 0;
  let connectFailure: FuzzProblem | null = null;
  const fits = inputFits(validator, tool);
  const property = fc.asyncProperty(arbitrary, async (args) => {
    // A server that cannot be reached fails every input alike: stop asking it (shrinking is then instant).
    if (connectFailure !== null) throw connectFailure;
    const verdict = fits(args);
    // Inputs ajv disagrees with (keywords the generators do not honour) are skipped, never judged.
    if (verdict !== null) fc.pre(phase === 'valid' ? verdict.fits : !verdict.fits);
    sent += 1;
    const outcome = await session.call(tool.name, args);
    if (outcome.kind === 'connect_failed') {
      connectFailure = new FuzzProblem('connect_failed', outcome.message);
      throw connectFailure;
    }
    const problem =
      phase === 'valid'
        ? judgeValid(outcome, validator, tool, context.timeoutMs)
        : judgeInvalid(outcome, context.timeoutMs);
    if (problem !== null) throw problem;
  });
  const details = await fc.check(property, { numRuns: context.runs, seed: context.seed });
  const base = { phase, runs: details.numRuns, skipped: details.numSkips };
  if (!details.failed) return { ...base, failure: null, note: null };
  if (details.counterexample === null) {
    // fast-check gives up when too many generated inputs are skipped: a generator gap, not a server fault.
    return {
      ...base,
      failure: null,
      note: `stopped after ${sent} input(s): too many generated inputs did not fit the schema`,
    };
  }
  const error = details.errorInstance;
  const problem =
    error instanceof FuzzProblem
      ? error
      : new FuzzProblem('unexpected_error', String((error as Error | undefined)?.message ?? error));
  return {
    ...base,
    failure: {
      tool: tool.name,
      phase,
      kind: problem.kind,
      problem: problem.message,
      input: details.counterexample[0],
      seed: details.seed,
      path: details.counterexamplePath,
      shrinks: details.numShrinks,
    },
    note: null,
  };
}

/** Whether ajv accepts the arguments; null when the schema does not compile (nothing is skipped then). */
function inputFits(validator: ToolSchemaValidator, tool: FuzzableTool): (args: unknown) => { fits: boolean } | null {
  return (args) => {
    try {
      validator.validateArguments(tool, args);
      return { fits: true };
    } catch (error) {
      const kind = (error as ModelValidationError).details?.kind;
      return kind === 'invalid_schema' ? null : { fits: false };
    }
  };
}

function judgeValid(
  outcome: CallOutcome,
  validator: ToolSchemaValidator,
  tool: FuzzableTool,
  timeoutMs: number,
): FuzzProblem | null {
  switch (outcome.kind) {
    case 'result':
      try {
        validator.validateResult(tool, outcome.structuredContent, outcome.isError);
        return null;
      } catch (error) {
        return new FuzzProblem('invalid_output', (error as Error).message);
      }
    case 'protocol_error':
      return new FuzzProblem(
        'protocol_error',
        `a valid input was answered with JSON-RPC error ${outcome.code ?? '(no code)'}: ${outcome.message}`,
      );
    case 'connect_failed':
      return new FuzzProblem('connect_failed', outcome.message);
    default:
      return serverFault(outcome, timeoutMs);
  }
}

function judgeInvalid(outcome: CallOutcome, timeoutMs: number): FuzzProblem | null {
  switch (outcome.kind) {
    case 'result':
      return outcome.isError
        ? null
        : new FuzzProblem(
            'accepted_invalid',
            'the result has no isError: true (expected isError: true or JSON-RPC -32602)',
          );
    case 'protocol_error':
      return outcome.code === -32602
        ? null
        : new FuzzProblem(
            'protocol_error',
            `JSON-RPC error ${outcome.code ?? '(no code)'} instead of isError: true or -32602 (invalid params): ${outcome.message}`,
          );
    case 'connect_failed':
      return new FuzzProblem('connect_failed', outcome.message);
    default:
      return serverFault(outcome, timeoutMs);
  }
}

function serverFault(
  outcome: Exclude<CallOutcome, { kind: 'result' | 'protocol_error' | 'connect_failed' }>,
  timeoutMs: number,
): FuzzProblem {
  if (outcome.kind === 'hang')
    return new FuzzProblem('hang', `no answer within ${timeoutMs} ms; the server was reaped and reconnected`);
  if (outcome.kind === 'crash') return new FuzzProblem('crash', outcome.message);
  return new FuzzProblem('unexpected_error', outcome.message);
}
