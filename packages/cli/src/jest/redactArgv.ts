// The argv saved with a run: `--header` and `--env` values are replaced, keeping their names.
import { REDACTED, type Redactor } from '@sf-m3/core';

const SECRET_VALUE_FLAGS = new Set(['--header', '--env']);

function redactPair(pair: string): string {
  const eq = pair.indexOf('=');
  return eq > 0 ? `${pair.slice(0, eq)}=${REDACTED}` : REDACTED;
}

/** Redacts `--header K=V` / `--env K=V` (and `--flag=K=V`) values, then every canary. */
export function redactArgv(argv: readonly string[], redactor: Redactor): string[] {
  const out: string[] = [];
  let redactNext = false;
  for (const token of argv) {
    if (redactNext) {
      out.push(redactPair(token));
      redactNext = false;
      continue;
    }
    const eq = token.indexOf('=');
    const flag = eq > 0 ? token.slice(0, eq) : token;
    if (SECRET_VALUE_FLAGS.has(flag)) {
      if (eq > 0) out.push(`${flag}=${redactPair(token.slice(eq + 1))}`);
      else {
        out.push(token);
        redactNext = true;
      }
      continue;
    }
    out.push(redactor.redactText(token));
  }
  return out;
}
