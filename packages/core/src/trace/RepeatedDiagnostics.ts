import type { RecordFields } from './RecorderInputs';

/** Diagnostics of one kind recorded one by one before the rest are summarized. */
export const REPEATED_DIAGNOSTIC_LIMIT = 20;
/** The limitation of a trace in which repeated diagnostics were counted instead of recorded. */
export const DIAGNOSTICS_SUMMARIZED = 'diagnostics_summarized';
/** Characters of a line a diagnostic quotes. */
export const LINE_PREVIEW_CHARS = 200;

/** The input line (or other unit) a repeated diagnostic is about. */
export interface RepeatedSample {
  /** The line as text (cut to `LINE_PREVIEW_CHARS` here; redacted when recorded). */
  readonly text: string;
  /** Its size in bytes, as read. */
  readonly bytes: number;
}

/** One diagnostic that may repeat once per input line. */
export interface RepeatedDiagnosticInput {
  /** What repeats: diagnostics with the same key are counted together (e.g. connection and code). */
  readonly key: string;
  /** The event's fields; `payload` holds `code` and `message` (a `DiagnosticPayload`). */
  readonly fields: RecordFields;
  /** What words the summary uses for the repeated thing, e.g. `non-JSON lines on stdout`. */
  readonly what: string;
  readonly sample?: RepeatedSample;
}

/** What is known of one key: counters and the first and last lines, never the lines in between. */
interface Tally {
  readonly fields: RecordFields;
  readonly what: string;
  count: number;
  bytes: number;
  first: string | undefined;
  last: string | undefined;
}

const preview = (text: string): string =>
  text.length > LINE_PREVIEW_CHARS ? `${text.slice(0, LINE_PREVIEW_CHARS)}…` : text;

/**
 * Rate-limits diagnostics that a misbehaving peer can cause once per line (contract §22): the first
 * `limit` of a key are recorded one by one (quoting their line), the rest are only counted, and
 * `drain` gives one summary diagnostic per key with the count, the bytes and the first and last
 * lines. Memory per key is constant, so a server writing 200 000 non-JSON lines costs 21 events.
 */
export class RepeatedDiagnostics {
  private readonly tallies = new Map<string, Tally>();
  private summarizedAny = false;

  constructor(private readonly limit: number = REPEATED_DIAGNOSTIC_LIMIT) {}

  /** True once some diagnostic was summarized rather than recorded (the trace then says so). */
  get summarized(): boolean {
    return this.summarizedAny;
  }

  /** The fields to record now (the payload quoting the line), or undefined when it is only counted. */
  admit(input: RepeatedDiagnosticInput): RecordFields | undefined {
    let tally = this.tallies.get(input.key);
    if (tally === undefined) {
      tally = { fields: input.fields, what: input.what, count: 0, bytes: 0, first: undefined, last: undefined };
      this.tallies.set(input.key, tally);
    }
    tally.count += 1;
    const line = input.sample === undefined ? undefined : preview(input.sample.text);
    if (input.sample !== undefined) {
      tally.bytes += input.sample.bytes;
      tally.first ??= line;
      tally.last = line;
    }
    if (tally.count > this.limit) {
      this.summarizedAny = true;
      return undefined;
    }
    if (input.sample === undefined) return input.fields;
    return { ...input.fields, payload: { ...input.fields.payload, line, lineBytes: input.sample.bytes } };
  }

  /**
   * One summary diagnostic per key (matching `filter`) that had more than `limit` occurrences, then
   * forgets those keys; later occurrences start a new count.
   */
  drain(filter: (key: string) => boolean = () => true): RecordFields[] {
    const out: RecordFields[] = [];
    for (const [key, tally] of this.tallies) {
      if (!filter(key)) continue;
      this.tallies.delete(key);
      if (tally.count <= this.limit) continue;
      const payload = tally.fields.payload as { code?: unknown };
      // The summary quotes lines in its payload; the first line's raw evidence stays on its own event.
      const {
        raw: _raw,
        rawMediaType: _type,
        rawSource: _source,
        rawOriginalSizeBytes: _size,
        ...fields
      } = tally.fields;
      const summarized = tally.count - this.limit;
      const lines =
        tally.first === undefined ? '' : `; first: ${JSON.stringify(tally.first)}, last: ${JSON.stringify(tally.last)}`;
      out.push({
        ...fields,
        payload: {
          code: payload.code,
          message:
            `${tally.count} ${tally.what} (${tally.bytes} bytes): the first ${this.limit} are recorded one by one, ` +
            `the other ${summarized} only counted here${lines}`,
          summarized: true,
          count: tally.count,
          recordedCount: this.limit,
          summarizedCount: summarized,
          bytes: tally.bytes,
          ...(tally.first !== undefined && { firstLine: tally.first, lastLine: tally.last }),
        },
      });
    }
    return out;
  }
}
