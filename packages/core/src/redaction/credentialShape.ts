// Which values are secrets when only a name (an env variable, a flag) or a scheme (`Bearer …`)
// says so. Redaction replaces secrets, not words: a guessed canary that is a plain word or number
// would blank that word in every test name, message and trace of the run.
import { isSensitiveName } from './Redactor';

/** Env names whose `--env-file` values are secrets (contract §22); `AUTH` but not `AUTHOR`. */
const SECRET_ENV_NAME = /KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|AUTH(?!OR)/i;
/** Shortest value taken for a secret on its name or scheme alone. */
export const MIN_GUESSED_SECRET_LENGTH = 8;
/** A single word (`authentication`, `Localhost`) or a plain number (`86400000`). */
const PLAIN_WORD_OR_NUMBER = /^(?:[A-Za-z][a-z]*|[0-9]+)$/;
/** npm's copy of package.json fields (`npm_package_keywords_0`…): metadata, never a secret. */
const NPM_PACKAGE_FIELD = /^npm_package_/i;

/** `Bearer x`, `Basic x` or `Token x`: the bare token is a secret too. */
const SCHEME_TOKEN = /^\s*(?:Bearer|Basic|Token)\s+(\S+)\s*$/i;

/** A credential and, for `Bearer x` / `Basic x` / `Token x`, its bare token: the forms a secret is repeated in. */
export function credentialForms(value: string): string[] {
  const token = SCHEME_TOKEN.exec(value)?.[1];
  return token === undefined ? [value] : [value, token];
}

/** True when an env name marks an `--env-file` value as a secret (KEY, TOKEN, SECRET, PASSWORD, CREDENTIAL, AUTH). */
export function isSecretEnvName(name: string): boolean {
  return SECRET_ENV_NAME.test(name);
}

/**
 * True when a value found only by its name or scheme is plausibly a credential: at least 8
 * characters and not one plain word or number. `basic`, `enabled`, `authentication`, `1000` are not.
 */
export function looksLikeCredential(value: string | undefined | null): value is string {
  if (typeof value !== 'string') return false;
  const trimmed = value.trim();
  return trimmed.length >= MIN_GUESSED_SECRET_LENGTH && !PLAIN_WORD_OR_NUMBER.test(trimmed);
}

/**
 * The canaries of an environment: values of variables whose name looks secret (KEY, TOKEN,
 * SECRET, PASSWORD, AUTHORIZATION, COOKIE, CREDENTIAL) and of every variable in `secretNames`
 * (e.g. what `--env-file` loaded), when they look like credentials (`looksLikeCredential`).
 * npm's `npm_package_*` copies of package.json (`npm_package_keywords_0`) are not secrets.
 */
export function environmentCanaries(env: NodeJS.ProcessEnv, secretNames: Iterable<string> = []): string[] {
  const names = new Set(secretNames);
  const canaries = new Set<string>();
  for (const [name, value] of Object.entries(env)) {
    const named = names.has(name) || (isSensitiveName(name) && !NPM_PACKAGE_FIELD.test(name));
    if (named && looksLikeCredential(value)) canaries.add(value);
  }
  return [...canaries];
}
