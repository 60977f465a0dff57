import type { JsonValue } from '../../json';
import type {
  CaptureExitRecord,
  CaptureFrameRecord,
  CaptureLimitRecord,
  CapturePolicyDecision,
  CaptureRecord,
  CaptureStartRecord,
} from '../../proxy/CaptureFile';
import type { ProcessExitedPayload } from '../../trace/payloads';
import { CAPTURE_BUDGET_EXHAUSTED } from './captureBudgetExhausted';
import { jsonrpcIdOf, type WireEventWriter, type WirePolicyVerdict } from './WireEventWriter';

/** What the records of one capture file are about. */
export interface CaptureRecordContext {
  /** Basename of the real server's executable (never its command line). */
  readonly executable: string;
}

/** Words for the `spawn_error` codes a user can act on. */
function spawnReason(code: string): string {
  if (code === 'ENOENT') return 'the command was not found: check `command` and that it is on PATH';
  if (code === 'EACCES') return 'the command is not executable: check its permissions';
  return `the process could not be spawned (${code})`;
}

function verdictOf(decision: CapturePolicyDecision | undefined): WirePolicyVerdict | undefined {
  return decision === undefined ? undefined : { decision: decision.decision, reason: decision.reason };
}

/** A stand-in for a message whose frame was cut by the proxy's bound: its summary, no body. */
function summaryMessage(summary: NonNullable<CaptureFrameRecord['messages']>[number]): unknown {
  const id = summary.id === undefined ? {} : { id: summary.id };
  switch (summary.kind) {
    case 'request':
    case 'notification':
      return {
        jsonrpc: '2.0',
        ...id,
        method: summary.method ?? 'unknown',
        params: summary.tool !== undefined ? { name: summary.tool } : null,
      };
    case 'response':
      return { jsonrpc: '2.0', ...id, result: null };
    case 'error':
      return { jsonrpc: '2.0', ...id, error: { code: null, message: 'the error frame was cut by the capture bound' } };
    default:
      return null;
  }
}

/** One event per message summary of a frame whose body is cut or gone (method, id, tool; no body). */
function recordSummaries(
  writer: WireEventWriter,
  frame: CaptureFrameRecord,
  direction: CaptureFrameRecord['direction'],
  answeredByProxy: boolean,
  policyAt: (index: number, id: JsonValue | undefined) => WirePolicyVerdict | undefined,
): void {
  (frame.messages ?? []).forEach((summary, index) => {
    const message = summaryMessage(summary);
    if (message === null) return;
    const policy = policyAt(index, summary.id);
    writer.message(message, JSON.stringify(message), direction, {
      ...(policy !== undefined && { policy }),
      answeredByProxy,
    });
  });
}

function recordFrame(writer: WireEventWriter, frame: CaptureFrameRecord): void {
  const { direction } = frame;
  const answeredByProxy = frame.origin === 'proxy';
  if (frame.format === 'empty') return;
  if (frame.format === 'non_json' || frame.format === 'binary') {
    writer.diagnostic(
      'non_json_frame',
      `a ${frame.format === 'binary' ? 'non-UTF-8' : 'non-JSON'} line crossed the stdio MCP connection (kept as raw evidence)`,
      {
        direction,
        raw: frame.raw,
        rawOriginalSizeBytes: frame.originalSizeBytes,
        repeatedAs: 'lines that are not JSON on the stdio MCP connection',
      },
    );
    return;
  }
  const policyAt = (index: number, id: JsonValue | undefined): WirePolicyVerdict | undefined =>
    verdictOf(
      frame.policy?.find(
        (p) => (p.index !== undefined ? p.index === index : true) && (id === undefined || p.id === id),
      ),
    );
  let parsed: unknown;
  let intact = !frame.truncated;
  if (intact) {
    try {
      parsed = JSON.parse(frame.raw);
    } catch {
      intact = false;
    }
  }
  if (frame.reduced === true) {
    // Past the capture budget (the `limit` record said so once): the summaries stand in for the body.
    recordSummaries(writer, frame, direction, answeredByProxy, policyAt);
    return;
  }
  if (!intact) {
    // Cut to the frame bound: the summaries the proxy took from the whole frame still name ids and methods.
    writer.diagnostic('frame_truncated', 'a frame exceeded the capture bound; its events carry only method and id', {
      direction,
      raw: frame.raw,
      rawMediaType: 'application/json',
      rawOriginalSizeBytes: frame.originalSizeBytes,
    });
    recordSummaries(writer, frame, direction, answeredByProxy, policyAt);
    return;
  }
  if (frame.format === 'json') {
    const policy = frame.policy?.[0] !== undefined ? verdictOf(frame.policy[0]) : undefined;
    writer.message(parsed, frame.raw, direction, {
      ...(policy !== undefined && { policy }),
      answeredByProxy,
      ...(frame.truncated && { originalSizeBytes: frame.originalSizeBytes }),
    });
    return;
  }
  // A batch: one event per message, each with its own serialized text as evidence.
  const batch = parsed as unknown[];
  if (batch.length === 0) {
    writer.diagnostic('malformed_message', 'an empty JSON-RPC batch', { direction, raw: frame.raw });
    return;
  }
  batch.forEach((message, index) => {
    const id = (message as { id?: JsonValue } | null)?.id;
    const policy = policyAt(index, id);
    writer.message(message, JSON.stringify(message), direction, {
      ...(policy !== undefined && { policy }),
      answeredByProxy,
    });
  });
}

function recordStart(writer: WireEventWriter, record: CaptureStartRecord, context: CaptureRecordContext): void {
  // Replayed from a cassette (contract §24): no server process ran; the connection did.
  if (record.replay === true) {
    writer.transport(true, 'stdio', 'cassette-replay');
    return;
  }
  writer.event('process.started', {
    phase: 'startup',
    direction: 'internal',
    payload: { executable: context.executable, pid: record.pid, proxyPid: record.proxyPid },
  });
  writer.transport(true, 'stdio', 'capture-proxy');
}

/** Words for the `limit` record: the trace says the wire evidence past this point is thinned. */
function recordLimit(writer: WireEventWriter, record: CaptureLimitRecord): void {
  const mib = Math.round((record.captureBytes / (1024 * 1024)) * 10) / 10;
  writer.limit(
    CAPTURE_BUDGET_EXHAUSTED,
    `the capture file of MCP server ${writer.server} reached its ${mib} MiB budget: later notifications and non-JSON ` +
      'lines are only counted, later requests and answers keep only method, id and tool (raise bounds.captureBytes ' +
      'to keep more)',
    { captureBytes: record.captureBytes },
  );
}

function recordExit(writer: WireEventWriter, record: CaptureExitRecord, context: CaptureRecordContext): void {
  if (record.budget !== undefined) {
    writer.diagnostic(
      'capture_budget_counts',
      `past the capture budget ${record.budget.reducedFrames} frames kept only their summaries and ` +
        `${record.budget.droppedFrames} were only counted`,
      { payload: { ...record.budget } },
    );
  }
  if (record.inFlightOmitted !== undefined) {
    writer.diagnostic(
      'transport_closed',
      `the MCP server ended (${record.reason}) before answering ${record.inFlightOmitted} more requests ` +
        '(only the first 1 000 are named)',
      { payload: { omitted: record.inFlightOmitted } },
    );
  }
  for (const request of record.inFlight) {
    const id = jsonrpcIdOf(request.id);
    writer.diagnostic(
      'transport_closed',
      `the MCP server ended (${record.reason}) before answering ${request.method}`,
      { ...(id !== undefined && { jsonrpcId: id }), payload: { method: request.method } },
    );
  }
  if (record.replay === true) {
    writer.transport(
      false,
      'stdio',
      'cassette-replay',
      record.reason === 'client_eof' ? 'closed_by_client' : record.reason,
    );
    return;
  }
  const payload: ProcessExitedPayload = {
    executable: context.executable,
    pid: null,
    exitCode: record.code,
    signal: record.signal,
    stderr: null,
  };
  writer.event('process.exited', {
    phase: 'cleanup',
    direction: 'internal',
    payload: { ...payload, reason: record.reason, stopSignal: record.stopSignal },
    ...(record.stderrTail.length > 0 && {
      raw: record.stderrTail,
      rawMediaType: 'text/plain; charset=utf-8',
      rawSource: 'process_stderr' as const,
      ...(record.stderrTruncated && { rawOriginalSizeBytes: Buffer.byteLength(record.stderrTail) + 1 }),
    }),
  });
  writer.transport(
    false,
    'stdio',
    'capture-proxy',
    record.reason === 'client_eof' ? 'closed_by_client' : record.reason,
  );
}

/**
 * Records capture records (in file order) as trace events through `writer`: frames as JSON-RPC
 * wire events (one per batch element, policy verdicts on `tools/call` requests, proxy denials
 * marked), `start` as `process.started` + `transport.connected`, `exit` as `transport_closed`
 * diagnostics for unanswered requests + `process.exited` (stderr tail as evidence) +
 * `transport.disconnected`, `spawn_error` as a diagnostic naming the fix.
 */
export function recordCaptureRecords(
  writer: WireEventWriter,
  records: readonly CaptureRecord[],
  context: CaptureRecordContext,
): { startPid: number | null; proxyPid: number | null } {
  let startPid: number | null = null;
  let proxyPid: number | null = null;
  for (const record of records) {
    switch (record.type) {
      case 'frame':
        recordFrame(writer, record);
        break;
      case 'start':
        startPid = record.pid;
        proxyPid = record.proxyPid;
        recordStart(writer, record, context);
        break;
      case 'exit':
        recordExit(writer, record, context);
        break;
      case 'spawn_error':
        writer.diagnostic(
          'server_spawn_failed',
          `the capture proxy could not start MCP server ${writer.server}: ${spawnReason(record.code)}`,
          { payload: { errno: record.code } },
        );
        break;
      case 'limit':
        recordLimit(writer, record);
        break;
      case 'end':
        break;
    }
  }
  return { startPid, proxyPid };
}
