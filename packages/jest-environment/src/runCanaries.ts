// The redaction canaries every worker of a run knows before any kit exists, so a failure message,
// a run report or a kit's evidence cannot hold them even when the test failed before connecting.
import {
  credentialForms,
  isSensitiveName,
  resultsLocationSecrets,
  commandLineCanaries,
  environmentCanaries,
} from '@sf-m3/core/internal';

/**
 * Comma-separated names of variables whose values are secrets for the whole run (set by `m3 test`
 * for what `--env-file` loaded). Names, not values: a worker reads the values from its own env.
 */
export const SECRET_ENV_NAMES_ENV = 'M3_SECRET_ENV_NAMES';

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The names listed in `M3_SECRET_ENV_NAMES`; malformed entries are ignored. */
export function secretEnvNames(env: NodeJS.ProcessEnv): string[] {
  return (env[SECRET_ENV_NAMES_ENV] ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter((name) => ENV_NAME.test(name));
}

function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/**
 * Secrets of the `m3 test --server` selections (`M3_SERVERS`): header and env values under secret
 * names (and a Bearer value's bare token), as the kit treats them at connect time, and stdio
 * arguments such as `--token=…` (`commandLineCanaries`).
 */
export function selectionCanaries(servers: readonly unknown[] | null): string[] {
  const canaries: string[] = [];
  for (const server of servers ?? []) {
    const fields = record(server);
    for (const [name, value] of Object.entries({ ...record(fields.headers), ...record(fields.env) })) {
      if (typeof value !== 'string' || !isSensitiveName(name)) continue;
      canaries.push(...credentialForms(value));
    }
    const args = Array.isArray(fields.args) ? fields.args.filter((a): a is string => typeof a === 'string') : [];
    canaries.push(...commandLineCanaries(args));
  }
  return canaries;
}

/**
 * The run's canaries in this worker: secret-looking values of its environment, the variables
 * `M3_SECRET_ENV_NAMES` lists (`--env-file` secrets), the secrets of the CLI's server selections and
 * the password of a PostgreSQL `M3_RESULTS_DB` URL.
 */
export function runCanaries(env: NodeJS.ProcessEnv, servers: readonly unknown[] | null): string[] {
  // The list of names is not a secret, though its own name says SECRET.
  const { [SECRET_ENV_NAMES_ENV]: _names, ...values } = env;
  return [
    ...new Set([
      ...environmentCanaries(values, secretEnvNames(env)),
      ...selectionCanaries(servers),
      ...resultsLocationSecrets(env.M3_RESULTS_DB ?? ''),
    ]),
  ];
}
