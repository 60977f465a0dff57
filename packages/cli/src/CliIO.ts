// Where the CLI writes and which process facts it reads; tests pass their own.
import { isSensitiveName, Redactor } from '@sf-m3/core';

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
 * look secret (including those loaded from `--env-file`) and every extra value (server headers/env).
 */
export function cliRedactor(env: NodeJS.ProcessEnv, extra: readonly string[] = []): Redactor {
  const canaries: string[] = [...extra];
  for (const [name, value] of Object.entries(env)) {
    if (value !== undefined && isSensitiveName(name)) canaries.push(value);
  }
  return new Redactor(canaries);
}
