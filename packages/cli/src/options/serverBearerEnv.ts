// The tokens of `--server http … --bearer-env NAME`: read from the environment once `--env-file` is
// loaded, so an unset variable is a usage error before Jest starts (not a failed connect in every
// test), and the values become secrets the CLI and every worker redact.
import type { ServerSelection } from './serverGroups';
import { UsageError } from './UsageError';

/** The bearer variables of the selections and the tokens they hold. */
export interface BearerEnvSecrets {
  /** Variable names, for `M3_SECRET_ENV_NAMES` (each worker redacts their values from the start). */
  names: string[];
  /** The tokens, for the CLI's own redactor. */
  values: string[];
}

/**
 * Reads every `--bearer-env` variable from `env`; throws `UsageError` naming the variable (never a
 * value) when one is unset, empty or not a single line.
 */
export function bearerEnvSecrets(selections: readonly ServerSelection[], env: NodeJS.ProcessEnv): BearerEnvSecrets {
  const names: string[] = [];
  const values: string[] = [];
  for (const selection of selections) {
    if (selection.transport !== 'http' || selection.auth === undefined) continue;
    const name = selection.auth.token.env;
    const value = env[name];
    if (value === undefined || value.trim() === '') {
      throw new UsageError(
        '--bearer-env',
        `${name} (the bearer token of server "${selection.name}") is not set: export ${name}=<token> ` +
          'or put it in the --env-file',
      );
    }
    if (/[\r\n]/.test(value)) {
      throw new UsageError('--bearer-env', `${name} holds more than one line; a bearer token is a single line`);
    }
    if (!names.includes(name)) names.push(name);
    values.push(value);
  }
  return { names, values };
}
