import { CREDENTIAL_QUERY_PARAMS, isSensitiveName, REDACTED, Redactor } from '../redaction/Redactor';
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

/**
 * Command-line arguments as they may be printed (SPEC §2 secret rules): the value of an argument
 * whose name looks like a secret (`--api-key=…`, `API_TOKEN=…`, `X-Api-Key: …`), the argument
 * after such a flag (`--token …`), credential query parameters in URLs, bearer/basic tokens, URL
 * credentials and every canary are replaced by `[REDACTED]`. Over-redacts rather than leaks (a
 * `--max-tokens 5` loses its 5). Flags themselves stay, so the shape of the command stays readable.
 */
export function redactCommandLine(args: readonly string[], canaries: readonly string[]): string[] {
  const redactor = new Redactor(canaries);
  const out: string[] = [];
  let valueIsSecret = false;
  for (const arg of args) {
    if (valueIsSecret && !arg.startsWith('-')) {
      out.push(REDACTED);
      valueIsSecret = false;
      continue;
    }
    valueIsSecret = false;
    const assignment = ASSIGNMENT.exec(arg);
    const header = HEADER.exec(arg);
    const flag = FLAG.exec(arg);
    if (assignment !== null && isSensitiveName(assignment[1] as string)) {
      out.push(`${assignment[1]}=${REDACTED}`);
    } else if (assignment === null && header !== null && isSensitiveName(header[1] as string)) {
      out.push(`${header[1]}: ${REDACTED}`);
    } else {
      if (flag !== null && isSensitiveName(flag[1] as string)) valueIsSecret = true;
      out.push(redactQuery(redactor.redactText(arg)));
    }
  }
  return out;
}

/** One string of a definition (command, cwd) with the canaries and token shapes removed. */
export function redactDefinitionText(text: string, canaries: readonly string[]): string {
  return redactQuery(new Redactor(canaries).redactText(text));
}
