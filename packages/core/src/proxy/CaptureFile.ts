import { createHash } from 'node:crypto';
import { open } from 'node:fs/promises';
import type { JsonValue } from '../json';
import type { ProxyToolPolicy } from './toolPolicy';

/** Version of the records the proxy appends. */
export const CAPTURE_RECORD_VERSION = 1;

/** Which way a frame went; `origin: 'proxy'` marks answers the proxy wrote itself (denials). */
export type CaptureDirection = 'client_to_server' | 'server_to_client';

/** How a frame's bytes parsed. */
export type CaptureFrameFormat = 'json' | 'batch' | 'non_json' | 'empty' | 'binary';

/** A compact description of one JSON-RPC message in a frame (no params or results). */
export interface CaptureMessageSummary {
  readonly kind: 'request' | 'notification' | 'response' | 'error' | 'invalid';
  readonly id?: JsonValue;
  readonly method?: string;
  /** `params.name` of a `tools/call`. */
  readonly tool?: string;
}

/** The proxy's verdict on one `tools/call`. */
export interface CapturePolicyDecision {
  readonly id: JsonValue;
  /** Position in a batch. */
  readonly index?: number;
  readonly tool: string | null;
  readonly decision: 'allowed' | 'denied';
  readonly reason: string;
}

interface RecordBase {
  readonly v: number;
  readonly seq: number;
  /** Epoch milliseconds (sub-millisecond precision). */
  readonly time: number;
  readonly ts: string;
  readonly server: string;
}

/** Written first: the server's pid and the rules the proxy applies. */
export interface CaptureStartRecord extends RecordBase {
  readonly type: 'start';
  readonly pid: number | null;
  readonly proxyPid: number;
  readonly toolPolicy: ProxyToolPolicy;
  readonly bounds: { previewBytes: number; frameBytes: number; stderrTailBytes: number; captureBytes?: number };
  /** True when the server's side was replayed from a cassette: no server process ran (`pid` null). */
  readonly replay?: boolean;
}

/** One newline-delimited frame, redacted then bounded. */
export interface CaptureFrameRecord extends RecordBase {
  readonly type: 'frame';
  readonly direction: CaptureDirection;
  readonly origin: 'client' | 'server' | 'proxy';
  readonly format: CaptureFrameFormat;
  /** Bytes on the wire, line terminator excluded. */
  readonly originalSizeBytes: number;
  /** Bytes after redaction, before bounding. */
  readonly sizeBytes: number;
  /** Bytes of `raw`. */
  readonly storedBytes: number;
  /** sha256 (hex) of `raw` as UTF-8. */
  readonly sha256: string;
  readonly truncated: boolean;
  readonly redacted: boolean;
  readonly crlf: boolean;
  /** False for a trailing frame that ended without a newline. */
  readonly terminated: boolean;
  /** Redacted, bounded frame text (`base64:<...>` when the bytes were not UTF-8). */
  readonly raw: string;
  readonly messages?: CaptureMessageSummary[];
  readonly policy?: CapturePolicyDecision[];
  /**
   * Written past the capture budget: the frame's body is gone (`raw` empty, `truncated`), its
   * per-message summaries remain so calls still pair.
   */
  readonly reduced?: boolean;
  /** Client frames: whether the frame (or, for a partly denied batch, its allowed part) reached the server. */
  readonly forwarded?: boolean;
  readonly partiallyForwarded?: boolean;
}

/** The server ended: how, why, what was unanswered, and its stderr tail (redacted, bounded). */
export interface CaptureExitRecord extends RecordBase {
  readonly type: 'exit';
  readonly reason: 'client_eof' | 'server_exit' | 'signal';
  readonly code: number | null;
  readonly signal: string | null;
  /** The signal the proxy received and forwarded to the server's process group. */
  readonly stopSignal: string | null;
  /** The first 1 000 requests still unanswered. */
  readonly inFlight: { id: JsonValue; method: string }[];
  /** Unanswered requests past the first 1 000, only counted. */
  readonly inFlightOmitted?: number;
  /** Present when the capture budget ran out: frames kept reduced and frames only counted. */
  readonly budget?: CaptureBudgetSummary;
  readonly stderrTail: string;
  readonly stderrTruncated: boolean;
  /** True when the server's side was replayed from a cassette (no process ended). */
  readonly replay?: boolean;
}

/** What became of frames past the capture budget (`ProxyBounds.captureBytes`). */
export interface CaptureBudgetSummary {
  readonly captureBytes: number;
  readonly reducedFrames: number;
  readonly droppedFrames: number;
}

/** Written once, when the first frame did not fit the capture budget. */
export interface CaptureLimitRecord extends RecordBase {
  readonly type: 'limit';
  readonly captureBytes: number;
}

/** The server command could not be started. */
export interface CaptureSpawnErrorRecord extends RecordBase {
  readonly type: 'spawn_error';
  readonly code: string;
}

/** Written last, after every other record: the capture is complete. */
export interface CaptureEndRecord extends RecordBase {
  readonly type: 'end';
  readonly exitCode: number;
}

/** Any record of a capture file. */
export type CaptureRecord =
  | CaptureStartRecord
  | CaptureFrameRecord
  | CaptureLimitRecord
  | CaptureExitRecord
  | CaptureSpawnErrorRecord
  | CaptureEndRecord;

/** A frame record with its preview and an integrity check. */
export interface CaptureFrame extends CaptureFrameRecord {
  /** `raw` cut to the preview bound (64 KiB) on a character boundary. */
  readonly preview: string;
  readonly previewTruncated: boolean;
  /** True when `sha256` matches `raw`. */
  readonly intact: boolean;
}

const DEFAULT_PREVIEW_BYTES = 64 * 1024;
const NEWLINE = 0x0a;

/**
 * Reads a capture file the proxy is still appending to: each `read()` returns the records added
 * since the last one. A last line without its newline is left for the next read (the proxy may be
 * mid-write); `tornTail` reports it, and a final read after the proxy died simply ignores it.
 */
export class CaptureFile {
  private offset = 0;
  private readonly all: CaptureRecord[] = [];
  private pendingBytes = 0;
  private malformed = 0;

  constructor(readonly path: string) {}

  /** Every record read so far. */
  get records(): readonly CaptureRecord[] {
    return this.all;
  }

  /** Frames read so far, with previews. */
  get frames(): CaptureFrame[] {
    const start = this.start;
    const previewBytes = start?.bounds.previewBytes ?? DEFAULT_PREVIEW_BYTES;
    return this.all.filter((r): r is CaptureFrameRecord => r.type === 'frame').map((r) => toFrame(r, previewBytes));
  }

  get start(): CaptureStartRecord | undefined {
    return this.all.find((r): r is CaptureStartRecord => r.type === 'start');
  }

  get exit(): CaptureExitRecord | undefined {
    return this.all.find((r): r is CaptureExitRecord => r.type === 'exit');
  }

  /** The closing record; present only when the proxy finished normally. */
  get end(): CaptureEndRecord | undefined {
    return this.all.find((r): r is CaptureEndRecord => r.type === 'end');
  }

  /** True when the last read saw bytes after the last newline (a record still being written or torn). */
  get tornTail(): boolean {
    return this.pendingBytes > 0;
  }

  /** Complete lines that were not valid records (skipped). */
  get malformedLines(): number {
    return this.malformed;
  }

  /** Reads and parses whatever was appended since the last read; returns the new records. */
  async read(): Promise<CaptureRecord[]> {
    let handle;
    try {
      handle = await open(this.path, 'r');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
    const chunks: Buffer[] = [];
    try {
      const size = (await handle.stat()).size;
      let position = this.offset;
      while (position < size) {
        const buf = Buffer.allocUnsafe(Math.min(size - position, 4 * 1024 * 1024));
        const { bytesRead } = await handle.read(buf, 0, buf.length, position);
        if (bytesRead === 0) break;
        chunks.push(buf.subarray(0, bytesRead));
        position += bytesRead;
      }
    } finally {
      await handle.close();
    }
    const data = Buffer.concat(chunks);
    const added: CaptureRecord[] = [];
    let start = 0;
    let nl = data.indexOf(NEWLINE, start);
    while (nl !== -1) {
      const record = parseRecord(data.subarray(start, nl));
      if (record) added.push(record);
      else this.malformed += 1;
      start = nl + 1;
      nl = data.indexOf(NEWLINE, start);
    }
    this.offset += start;
    this.pendingBytes = data.length - start;
    this.all.push(...added);
    return added;
  }

  /** Reads a whole capture file once. */
  static async readAll(path: string): Promise<CaptureFile> {
    const file = new CaptureFile(path);
    await file.read();
    return file;
  }
}

function parseRecord(line: Buffer): CaptureRecord | null {
  try {
    const value = JSON.parse(line.toString('utf8')) as Partial<CaptureRecord> | null;
    if (!value || typeof value !== 'object' || typeof value.type !== 'string' || typeof value.seq !== 'number') {
      return null;
    }
    if (value.v !== CAPTURE_RECORD_VERSION) return null;
    return value as CaptureRecord;
  } catch {
    return null;
  }
}

function toFrame(record: CaptureFrameRecord, previewBytes: number): CaptureFrame {
  const intact = createHash('sha256').update(record.raw, 'utf8').digest('hex') === record.sha256;
  const { text, truncated } = cutUtf8(record.raw, previewBytes);
  return { ...record, preview: text, previewTruncated: truncated, intact };
}

/** Cuts UTF-8 text to at most `limit` bytes without splitting a character. */
function cutUtf8(text: string, limit: number): { text: string; truncated: boolean } {
  if (text.length <= limit / 3 || Buffer.byteLength(text, 'utf8') <= limit) return { text, truncated: false };
  const buf = Buffer.from(text, 'utf8');
  let end = limit;
  while (end > 0 && (buf[end] & 0xc0) === 0x80) end -= 1;
  return { text: buf.subarray(0, end).toString('utf8'), truncated: true };
}
