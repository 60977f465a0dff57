// Where the CLI writes and which process facts it reads; tests pass their own.
import type { environmentCanaries, Redactor } from '@sf-m3/core';

/** Output streams and process facts of one CLI invocation. */
export interface CliIO {
  stdout(text: string): void;
  stderr(text: string): void;
  cwd: string;
  env: NodeJS.ProcessEnv;
}

/** The real process. */
export function processIO(): CliIO {
  return {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    cwd: process.cwd(),
    env: process.env,
  };
}

/**
 * A redactor for everything the CLI prints or writes: values of environment variables whose names
 * look secret, of every variable in `secretNames` (what `--env-file` loaded under a secret name)
 * and every extra value (server headers/env/arguments). Guessed by name, a value counts only when
 * it looks like a credential (`looksLikeCredential`), so `AUTH_MODE=basic` does not blank "basic".
 */
export function cliRedactor(
  env: NodeJS.ProcessEnv,
  extra: readonly string[] = [],
  secretNames: readonly string[] = [],
): Redactor {
  // Required here: main.ts imports this file, and `m3 --version` or a usage error needs no core. The
  // internal entry, not `@sf-m3/core`: no `m3` command loads the kit's entry (e2e/lightImport.test.ts).
  const core = require('@sf-m3/core/internal') as {
    environmentCanaries: typeof environmentCanaries;
    Redactor: typeof Redactor;
  };
  return new core.Redactor([...extra, ...core.environmentCanaries(env, secretNames)]);
}
