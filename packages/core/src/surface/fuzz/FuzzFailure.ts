/** Which property of contract §25 a fuzz run checks. */
export type FuzzPhase = 'valid' | 'invalid';

/** What went wrong on one input, in words a user can act on. */
export type FuzzProblemKind =
  'crash' | 'hang' | 'protocol_error' | 'invalid_output' | 'accepted_invalid' | 'unexpected_error' | 'connect_failed';

/** The shrunk failing input of a fuzz run and how to replay it. */
export interface FuzzFailure {
  readonly tool: string;
  readonly phase: FuzzPhase;
  readonly kind: FuzzProblemKind;
  /** One sentence: what the server did (exit code and stderr tail for a crash, the ajv path for a schema break). */
  readonly problem: string;
  /** The minimal input fast-check shrank the failure to. */
  readonly input: unknown;
  readonly seed: number;
  /** fast-check's replay path of the counterexample. */
  readonly path: string | null;
  readonly shrinks: number;
}

const HEADLINES: Readonly<Record<FuzzProblemKind, string>> = {
  crash: 'crashed the server (the connection ended)',
  hang: 'hung: no answer within the timeout',
  protocol_error: 'was answered with a JSON-RPC error',
  invalid_output: 'returned structuredContent that breaks its outputSchema',
  accepted_invalid: 'accepted an input that breaks its inputSchema',
  unexpected_error: 'failed with an unexpected error',
  connect_failed: 'could not be fuzzed: connecting to the server failed',
};

/** Where the seed goes to run the same inputs again. */
export const FUZZ_SEED_ENV = 'M3_FUZZ_SEED';

/**
 * The message a failing fuzz test prints: the tool, the phase, what happened, the shrunk input,
 * the seed and path, and the commands that reproduce it (contract §25).
 */
export function fuzzFailureMessage(failure: FuzzFailure, testPath: string | null = null): string {
  const input = JSON.stringify(failure.input) ?? 'undefined';
  const jestCommand = `${FUZZ_SEED_ENV}=${failure.seed} npx jest${testPath === null ? '' : ` ${testPath}`}`;
  return [
    `fuzz: tool ${failure.tool} ${HEADLINES[failure.kind]} on ${failure.phase === 'valid' ? 'a valid' : 'an invalid'} input`,
    `  problem: ${failure.problem}`,
    `  minimal input: ${input}`,
    `  seed: ${failure.seed} (shrunk ${failure.shrinks} time(s))`,
    `  reproduce: npx m3 test --seed ${failure.seed}   or   ${jestCommand}`,
    // Last: Jest reads "a:1:2"-like text as a stack location and trims its indentation.
    ...(failure.path === null ? [] : [`  fast-check path: ${failure.path}`]),
  ].join('\n');
}
