// What the summary shows of a failure message: one meaningful line for the terminal, and the whole
// (redacted, bounded) message for feedback.json and `--json`.
import type { Redactor } from '@sf-m3/core';

/** Longest headline printed after a failed test's name, in characters. */
export const MAX_HEADLINE_CHARS = 200;
/** Largest failure message feedback.json holds per failed test, in UTF-8 bytes. */
export const MAX_FAILURE_MESSAGE_BYTES = 8 * 1024;

// eslint-disable-next-line no-control-regex -- matching ANSI colour codes is the point
const ANSI = /\u001b\[[0-9;]*[A-Za-z]/g;
// `expect(received)[.not|.resolves|.rejects].toX(args) // comment`: Jest's and m3's matcher hint,
// which names the matcher but not what went wrong.
const MATCHER_HINT =
  /^(?:[A-Za-z]*Error:\s*)?expect\(.*\)\.(?:(?:not|resolves|rejects)\.)*[A-Za-z_$][\w$]*\(.*\)(?:\s*\/\/.*)?$/;
// `- Expected  - 1` / `+ Received  + 1`: a diff starts here, and a diff line is no sentence.
const DIFF_LEGEND = /^[-+] .*\s{2}[-+] \d+$/;
const EXECUTION_ID = /^executionId=\S+$/;

// Colours are stripped before redacting, so a code inside a secret cannot hide it from the redactor.
const plain = (text: string, redactor: Redactor): string => redactor.redactText(text.replace(ANSI, ''));

/**
 * The first line of a failure message that says what went wrong, redacted and bounded: blank lines,
 * matcher hints (`expect(received).toX(...)`), ANSI codes and `executionId=` are skipped, and an
 * `Expected …` line is joined with the `Received …` line of its paragraph. A message that is only a
 * hint and a diff gives the hint; `null` when there is no text.
 */
export function failureHeadline(message: string | null, redactor: Redactor): string | null {
  if (message === null) return null;
  const lines = plain(message, redactor)
    .split('\n')
    .map((line) => line.trim());
  const first = lines.find((line) => line !== '');
  if (first === undefined) return null;
  const diffAt = lines.findIndex((line) => DIFF_LEGEND.test(line));
  const prose = diffAt === -1 ? lines : lines.slice(0, diffAt);
  const at = prose.findIndex((line) => line !== '' && !MATCHER_HINT.test(line) && !EXECUTION_ID.test(line));
  let headline = at === -1 ? first : prose[at]!;
  if (at !== -1 && /^Expected\b/.test(headline)) {
    // `Received` may follow a line that qualifies the expectation (toHaveToolCall's `Matching: …`).
    const rest = prose.slice(at + 1);
    const paragraph = rest.slice(0, rest.includes('') ? rest.indexOf('') : rest.length);
    const received = paragraph.find((line) => /^Received\b/.test(line));
    if (received !== undefined) headline = `${headline}; ${received}`;
  }
  return headline.length > MAX_HEADLINE_CHARS ? `${headline.slice(0, MAX_HEADLINE_CHARS - 1)}…` : headline;
}

/**
 * The whole failure message without colours, redacted, and cut to {@link MAX_FAILURE_MESSAGE_BYTES}
 * (at a character boundary, ending with how much was shown); `null` stays `null`.
 */
export function fullFailureMessage(message: string | null, redactor: Redactor): string | null {
  if (message === null) return null;
  const text = plain(message, redactor);
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= MAX_FAILURE_MESSAGE_BYTES) return text;
  // The note after the cut takes under 64 bytes whatever numbers it carries.
  let end = MAX_FAILURE_MESSAGE_BYTES - 64;
  while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end -= 1;
  return `${bytes.subarray(0, end).toString('utf8')}… [truncated: ${end} of ${bytes.length} bytes shown]`;
}
