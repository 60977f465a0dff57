import type { CassetteRequest } from '../cassettes/CassetteFormat';
import { lineDiff, requestLines, type DiffLine } from '../cassettes/lineDiff';
import type { JsonValue } from '../json';
import { M3Error } from './M3Error';

/** The facts a cassette miss is described with (all already normalized and redacted). */
export interface CassetteMissFacts {
  /** Full test name the cassette files the test under. */
  readonly testName: string;
  /** Test file path relative to the project root (for the re-record command). */
  readonly testPath: string;
  readonly channel: string;
  /** 1-based number of the request inside the channel. */
  readonly requestNumber: number;
  readonly request: CassetteRequest;
  /** The recorded request closest to `request`, or null when the channel has none. */
  readonly nearest: CassetteRequest | null;
}

/** The message never exceeds this many characters. */
const MAX_MESSAGE = 4000;
/** Diff lines shown at most, and characters per shown line. */
const MAX_DIFF_LINES = 40;
const MAX_LINE = 160;

/**
 * In mode `replay`, a model request had no recorded answer (contract §24). The message names the
 * test, channel and request, summarizes the request, shows how it differs from the nearest recorded
 * request (changed lines with one line of context) and gives the command that records it. It is
 * built from normalized, redacted requests and bounded to 4 000 characters.
 */
export class CassetteMissError extends M3Error {
  constructor(facts: CassetteMissFacts) {
    super('cassette_miss', missMessage(facts), {
      testName: facts.testName,
      testPath: facts.testPath,
      channel: facts.channel,
      request: facts.requestNumber,
      method: facts.request.method,
      path: facts.request.path,
    });
  }
}

function missMessage(facts: CassetteMissFacts): string {
  const head =
    `no recorded model response for a request of ${JSON.stringify(facts.testName)} ` +
    `(channel ${JSON.stringify(facts.channel)}, request ${facts.requestNumber})\n` +
    `  ${clip(`${facts.request.method} ${facts.request.path}  ${summary(facts.request.body)}`.trimEnd(), MAX_LINE)}\n`;
  const command = `  re-record it: npx m3 test ${facts.testPath} --update-cassettes   (or M3_CASSETTES=record)`;
  let middle: string;
  if (facts.nearest === null) {
    middle = '  the cassette holds no recorded request for this channel of this test\n';
  } else {
    const diff = lineDiff(requestLines(facts.nearest), requestLines(facts.request));
    middle = diff.every((line) => line.kind === ' ')
      ? '  the same request is recorded, but this test made it more often than the recording did\n'
      : `  nearest recorded request differs:\n${diffWithContext(diff)
          .map((line) => `    ${line}\n`)
          .join('')}`;
  }
  const room = MAX_MESSAGE - head.length - command.length;
  if (middle.length > room) middle = `${middle.slice(0, Math.max(0, room - 6))}\n    …\n`;
  return `${head}${middle}${command}`;
}

/** Changed lines with one line of context either side; `…` between groups that are apart. */
function diffWithContext(diff: readonly DiffLine[]): string[] {
  const keep = new Set<number>();
  diff.forEach((line, i) => {
    if (line.kind === ' ') return;
    for (const j of [i - 1, i, i + 1]) if (j >= 0 && j < diff.length) keep.add(j);
  });
  const out: string[] = [];
  let last = -1;
  for (const i of [...keep].sort((a, b) => a - b)) {
    if (out.length >= MAX_DIFF_LINES) {
      out.push('…');
      break;
    }
    if (last >= 0 && i > last + 1) out.push('…');
    const line = diff[i]!;
    out.push(clip(`${line.kind === ' ' ? ' ' : line.kind} ${line.text.trim()}`, MAX_LINE));
    last = i;
  }
  return out;
}

/** `model gpt-4o-mini, 3 messages, last user message "…"` for the chat dialects; '' otherwise. */
function summary(body: JsonValue | null): string {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return '';
  const parts: string[] = [];
  if (typeof body.model === 'string') parts.push(`model ${body.model}`);
  const messages = Array.isArray(body.messages)
    ? body.messages
    : Array.isArray(body.input)
      ? body.input
      : typeof body.input === 'string'
        ? [{ role: 'user', content: body.input }]
        : null;
  if (messages) {
    parts.push(`${messages.length} message${messages.length === 1 ? '' : 's'}`);
    const lastUser = [...messages].reverse().find((m) => isRecord(m) && m.role === 'user');
    const text = lastUser && isRecord(lastUser) ? textOf(lastUser.content) : '';
    if (text) parts.push(`last user message ${JSON.stringify(clip(text.replace(/\s+/g, ' '), 80))}`);
  }
  return parts.join(', ');
}

function isRecord(value: JsonValue | undefined): value is { [key: string]: JsonValue } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The text of a message's content: a string, or the text of its text parts. */
function textOf(content: JsonValue | undefined): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part) => (isRecord(part) && typeof part.text === 'string' ? part.text : ''))
    .filter((t) => t.length > 0)
    .join(' ');
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
