// The argv saved with a run: `--header` and `--env` values are replaced, keeping their names;
// `--arg` values follow a stdio server's command-line rules (`--token=…`, `--api-key …`).
import type { Redactor } from '@sf-m3/core';
import { redactCommandLine, REDACTED } from '@sf-m3/core/internal';

const SECRET_VALUE_FLAGS = new Set(['--header', '--env']);
const ARG_FLAG = '--arg';

function redactPair(pair: string): string {
  const eq = pair.indexOf('=');
  return eq > 0 ? `${pair.slice(0, eq)}=${REDACTED}` : REDACTED;
}

/** Where each `--arg` value sits in argv: a whole token, or after `--arg=`. */
interface ArgValue {
  readonly index: number;
  readonly inline: boolean;
  readonly value: string;
}

/**
 * Redacts `--header K=V` / `--env K=V` (and `--flag=K=V`) values; `--arg` values read in order as
 * one server command line (so `--arg --token --arg VALUE` hides VALUE, `--arg --api-key=V` hides
 * V); then every canary.
 */
export function redactArgv(argv: readonly string[], redactor: Redactor): string[] {
  const out: string[] = [];
  const argValues: ArgValue[] = [];
  let pending: 'secret' | 'arg' | null = null;
  for (const token of argv) {
    if (pending === 'secret') {
      out.push(redactPair(token));
      pending = null;
      continue;
    }
    if (pending === 'arg') {
      argValues.push({ index: out.length, inline: false, value: token });
      out.push(token);
      pending = null;
      continue;
    }
    const eq = token.indexOf('=');
    const flag = eq > 0 ? token.slice(0, eq) : token;
    if (SECRET_VALUE_FLAGS.has(flag)) {
      if (eq > 0) out.push(`${flag}=${redactPair(token.slice(eq + 1))}`);
      else {
        out.push(token);
        pending = 'secret';
      }
      continue;
    }
    if (flag === ARG_FLAG) {
      if (eq > 0) argValues.push({ index: out.length, inline: true, value: token.slice(eq + 1) });
      else pending = 'arg';
      out.push(token);
      continue;
    }
    out.push(redactor.redactText(token));
  }
  const redacted = redactCommandLine(
    argValues.map((arg) => arg.value),
    redactor.canaryValues(),
  );
  argValues.forEach((arg, i) => {
    out[arg.index] = arg.inline ? `${ARG_FLAG}=${redacted[i] as string}` : (redacted[i] as string);
  });
  return out;
}
