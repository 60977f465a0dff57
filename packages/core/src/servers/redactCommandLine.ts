import { CREDENTIAL_QUERY_PARAMS, isSensitiveName, REDACTED, Redactor } from '../redaction/Redactor';
import { credentialForms, looksLikeCredential } from '../redaction/credentialShape';
import { isSecretRef } from '../redaction/SecretRef';
import type { ConfiguredValue } from './ServerDefinition';

/** `--name=value`, `-name=value` or `NAME=value`: the name and the value. */
const ASSIGNMENT = /^(-{0,2}[A-Za-z0-9_.-]+)=([\s\S]*)$/;
/** `Name: value`, as a header passed on a command line. */
const HEADER = /^([A-Za-z0-9_-]+):\s*\S/;
/** A flag on its own: `--name` or `-name`. */
const FLAG = /^-{1,2}([A-Za-z0-9_.-]+)$/;
/** `?name=value` / `&name=value` in a URL. */
const QUERY_PARAM = /([?&])([^=&#\s]+)=([^&#\s]*)/g;

/**
 * The values that must never be printed from a stdio server's definition: its plain env values
 * under sensitive names (KEY, TOKEN, SECRET, PASSWORD...) and, when they are set, the values its
 * `secretFromEnv` references would resolve to.
 */
export function definitionCanaries(env: Readonly<Record<string, ConfiguredValue>>): string[] {
  const canaries: string[] = [];
  for (const [name, value] of Object.entries(env)) {
    if (isSecretRef(value)) {
      const resolved = process.env[value.env];
      if (resolved !== undefined) canaries.push(resolved);
    } else if (isSensitiveName(name)) {
      canaries.push(value);
    }
  }
  return canaries;
}

function redactQuery(text: string): string {
  if (!text.includes('=') || !/[?&]/.test(text)) return text;
  return text.replace(QUERY_PARAM, (whole, sep: string, name: string) =>
    CREDENTIAL_QUERY_PARAMS.has(name.toLowerCase()) || isSensitiveName(name) ? `${sep}${name}=${REDACTED}` : whole,
  );
}

/** What one argument of a command line holds, by the contract §2 secret rules. */
type ArgumentRole =
  | { readonly role: 'assignment' | 'header'; readonly name: string; readonly value: string }
  | { readonly role: 'secret_value' }
  | { readonly role: 'plain' };

/**
 * Reads a command line: `--api-key=…` / `API_TOKEN=…` (a secret name before `=`), `X-Api-Key: …`
 * (a header with a secret name), the argument after a flag with a secret name (`--token …`), and
 * everything else.
 */
function argumentRoles(args: readonly string[]): ArgumentRole[] {
  const roles: ArgumentRole[] = [];
  let valueIsSecret = false;
  for (const arg of args) {
    if (valueIsSecret && !arg.startsWith('-')) {
      roles.push({ role: 'secret_value' });
      valueIsSecret = false;
      continue;
    }
    valueIsSecret = false;
    const assignment = ASSIGNMENT.exec(arg);
    const header = HEADER.exec(arg);
    const flag = FLAG.exec(arg);
    if (assignment !== null && isSensitiveName(assignment[1] as string)) {
      roles.push({ role: 'assignment', name: assignment[1] as string, value: assignment[2] as string });
    } else if (assignment === null && header !== null && isSensitiveName(header[1] as string)) {
      const name = header[1] as string;
      roles.push({ role: 'header', name, value: arg.slice(arg.indexOf(':') + 1).trim() });
    } else {
      if (flag !== null && isSensitiveName(flag[1] as string)) valueIsSecret = true;
      roles.push({ role: 'plain' });
    }
  }
  return roles;
}

/**
 * Command-line arguments as they may be printed (contract §2 secret rules): the value of an argument
 * whose name looks like a secret (`--api-key=…`, `API_TOKEN=…`, `X-Api-Key: …`), the argument
 * after such a flag (`--token …`), credential query parameters in URLs, bearer/basic tokens, URL
 * credentials and every canary are replaced by `[REDACTED]`. Over-redacts rather than leaks (a
 * `--max-tokens 5` loses its 5). Flags themselves stay, so the shape of the command stays readable.
 */
export function redactCommandLine(args: readonly string[], canaries: readonly string[]): string[] {
  const redactor = new Redactor(canaries);
  return argumentRoles(args).map((role, index) => {
    if (role.role === 'assignment') return `${role.name}=${REDACTED}`;
    if (role.role === 'header') return `${role.name}: ${REDACTED}`;
    if (role.role === 'secret_value') return REDACTED;
    return redactQuery(redactor.redactText(args[index] as string));
  });
}

/**
 * The secret values a command line carries by the rules of `redactCommandLine` (`--token=…`,
 * `--api-key …`, `Authorization: Bearer …` and its bare token, credential query parameters), so
 * the kit can redact them wherever the process repeats them (stderr, results, errors). Only values
 * that look like credentials count (`looksLikeCredential`): `--max-tokens 1000` keeps its 1000.
 */
export function commandLineCanaries(args: readonly string[]): string[] {
  const found: string[] = [];
  argumentRoles(args).forEach((role, index) => {
    const arg = args[index] as string;
    if (role.role === 'assignment' || role.role === 'header') found.push(role.value);
    else if (role.role === 'secret_value') found.push(arg);
    else if (arg.includes('=') && /[?&]/.test(arg)) {
      for (const [, , name, value] of arg.matchAll(QUERY_PARAM)) {
        if (CREDENTIAL_QUERY_PARAMS.has((name as string).toLowerCase()) || isSensitiveName(name as string)) {
          found.push(value as string, decodeQueryValue(value as string));
        }
      }
    }
  });
  const canaries = new Set<string>();
  for (const value of found) {
    for (const form of credentialForms(value)) if (looksLikeCredential(form)) canaries.add(form);
  }
  return [...canaries];
}

/** A query value as a server would print it: percent-decoded when that is well-formed. */
function decodeQueryValue(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** One string of a definition (command, cwd) with the canaries and token shapes removed. */
export function redactDefinitionText(text: string, canaries: readonly string[]): string {
  return redactQuery(new Redactor(canaries).redactText(text));
}
