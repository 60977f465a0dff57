import { TransportKind } from '../../enums';
import type { JsonObject } from '../../json';
import { EventKind, type TraceEvent } from '../Event';
import type { EvidenceRef } from '../EvidenceRef';
import { notEmitted, observation, observed, unavailable, type Observation } from '../Observation';
import type {
  DiagnosticEntry,
  EntryStatus,
  InitializationEntry,
  ProcessEntry,
  RawMessageEntry,
  StderrCapture,
  TransportEntry,
} from '../TraceEntry';
import {
  connectionKeyOf,
  entryBase,
  entryIdOf,
  isJsonObject,
  numberField,
  stringField,
  type ProjectionContext,
} from './ProjectionContext';

const TRANSPORT_KINDS: ReadonlySet<string> = new Set(Object.values(TransportKind));

/**
 * `transport.connected` / `transport.disconnected` as a transport entry. A disconnect the client
 * did not ask for (an error, or the server closing) is a `transport_error`.
 */
export function projectTransport(context: ProjectionContext, event: TraceEvent): TransportEntry {
  const connected = event.kind === EventKind.TRANSPORT_CONNECTED;
  const transport = stringField(event.payload, 'transport');
  const instrumented = stringField(event.payload, 'instrumented');
  const reason = stringField(event.payload, 'reason');
  const failed =
    !connected && reason !== undefined && /error|fail|broken|unexpected|crash|closed_by_server/i.test(reason);
  const entry: { -readonly [K in keyof TransportEntry]: TransportEntry[K] } = {
    ...entryBase(context, 'transport', [event], failed ? 'transport_error' : 'completed'),
    phase: connected ? 'connected' : 'disconnected',
    configured:
      transport === undefined
        ? notEmitted()
        : TRANSPORT_KINDS.has(transport)
          ? observed(transport as TransportKind)
          : unavailable('malformed_source'),
    instrumented: instrumented === undefined ? notEmitted() : observed(instrumented),
  };
  if (reason !== undefined) entry.reason = reason;
  return entry;
}

/**
 * Names of the tools listed by `tools/list` responses on the connection of `event`, in order of
 * first appearance; not_emitted when the connection never listed its tools.
 */
function discoveredTools(context: ProjectionContext, event: TraceEvent): Observation<string[]> {
  const listed = context.toolLists.get(connectionKeyOf(event)) ?? [];
  if (listed.length === 0) return notEmitted();
  const names = new Set<string>();
  for (const response of listed) {
    const tools = isJsonObject(response.payload.result) ? response.payload.result.tools : undefined;
    if (!Array.isArray(tools)) return unavailable('malformed_source');
    for (const tool of tools) if (isJsonObject(tool) && typeof tool.name === 'string') names.add(tool.name);
  }
  return observed([...names]);
}

/** `mcp.initialized` as an initialization entry, with the tools the connection discovered. */
export function projectInitialization(context: ProjectionContext, event: TraceEvent): InitializationEntry {
  const p = event.payload;
  const info = isJsonObject(p.serverInfo) ? p.serverInfo : undefined;
  const text = (value: unknown): Observation<string> =>
    typeof value === 'string'
      ? observed(value)
      : value === undefined || value === null
        ? notEmitted()
        : unavailable('malformed_source');
  return {
    ...entryBase(context, 'initialization', [event], 'completed'),
    protocolVersion: text(p.protocolVersion),
    era: text(p.era),
    serverName: info ? text(info.name) : notEmitted(),
    serverVersion: info ? text(info.version) : notEmitted(),
    instructions: text(p.instructions),
    capabilities:
      p.capabilities === undefined
        ? notEmitted()
        : isJsonObject(p.capabilities)
          ? observed(p.capabilities)
          : unavailable('malformed_source'),
    tools: discoveredTools(context, event),
  };
}

const REAPING_SIGNALS = new Set(['SIGTERM', 'SIGKILL', 'SIGINT']);

function stderrOf(exited: TraceEvent | undefined): Observation<StderrCapture> {
  if (exited === undefined) return notEmitted();
  const stderr = exited.payload.stderr;
  // The recorder leaves stderr null when the child wrote nothing to it.
  if (stderr === null) return notEmitted();
  if (stderr === undefined) return unavailable('capture_disabled');
  if (!isJsonObject(stderr) || typeof stderr.preview !== 'string') return unavailable('malformed_source');
  const capture = stderr as unknown as StderrCapture;
  return capture.truncated ? observation('truncated', capture, 'evidence_truncated') : observed(capture);
}

/**
 * `process.started` with its `process.exited` (same pid, else same connection) as a process
 * entry. Exit code 0 or a reaping signal is `completed`; any other exit `failed`; no exit
 * `incomplete`.
 */
export function projectProcess(
  context: ProjectionContext,
  started: TraceEvent,
  exited: TraceEvent | undefined,
): ProcessEntry {
  const executable = stringField(started.payload, 'executable');
  const pid = numberField(started.payload, 'pid');
  const exitCode = exited ? numberField(exited.payload, 'exitCode') : undefined;
  const signal = exited ? stringField(exited.payload, 'signal') : undefined;
  let status: EntryStatus = 'incomplete';
  if (exited) status = exitCode === 0 || (signal !== undefined && REAPING_SIGNALS.has(signal)) ? 'completed' : 'failed';
  return {
    ...entryBase(context, 'process', [started, exited], status),
    executable: executable === undefined ? notEmitted() : observed(executable),
    pid: pid === undefined ? notEmitted() : observed(pid),
    exitCode: exitCode === undefined ? notEmitted() : observed(exitCode),
    signal: signal === undefined ? notEmitted() : observed(signal),
    stderr: stderrOf(exited),
  };
}

/** Pairs each `process.started` with its `process.exited`; an exit with no start stands alone. */
export function pairProcesses(events: readonly TraceEvent[]): [TraceEvent, TraceEvent | undefined][] {
  const pairs: [TraceEvent, TraceEvent | undefined][] = [];
  for (const event of events) {
    if (event.kind === EventKind.PROCESS_STARTED) pairs.push([event, undefined]);
    else if (event.kind === EventKind.PROCESS_EXITED) {
      const pid = numberField(event.payload, 'pid');
      const open = pairs.filter(([, exit]) => exit === undefined);
      const match =
        open.find(([start]) => pid !== undefined && numberField(start.payload, 'pid') === pid) ??
        open.find(([start]) => start.connectionId !== undefined && start.connectionId === event.connectionId) ??
        (open.length === 1 ? open[0] : undefined);
      if (match) match[1] = event;
      else pairs.push([event, event]);
    }
  }
  return pairs.map(([start, exit]) => (start === exit ? [start, undefined] : [start, exit]));
}

const DIAGNOSTIC_STATUS: Record<string, EntryStatus> = {
  operation_timeout: 'timed_out',
  deadline_exceeded: 'timed_out',
  operation_cancelled: 'cancelled',
  transport_closed: 'transport_error',
};

/** A `diagnostic` event (or an event kind with no entry of its own) as a diagnostic entry. */
export function projectDiagnostic(context: ProjectionContext, event: TraceEvent): DiagnosticEntry {
  const p = event.payload;
  if (event.kind !== EventKind.DIAGNOSTIC) {
    return {
      ...entryBase(context, 'diagnostic', [event], 'completed'),
      code: 'unprojected_event',
      message: `event kind ${event.kind} has no timeline entry of its own`,
    };
  }
  const code = stringField(p, 'code') ?? 'diagnostic';
  const entry: { -readonly [K in keyof DiagnosticEntry]: DiagnosticEntry[K] } = {
    ...entryBase(context, 'diagnostic', [event], DIAGNOSTIC_STATUS[code] ?? 'completed'),
    code,
    message: stringField(p, 'message') ?? '',
  };
  const stage = stringField(p, 'stage');
  const operation = stringField(p, 'operation');
  const elapsedMs = numberField(p, 'elapsedMs');
  const timeoutMs = numberField(p, 'timeoutMs');
  if (stage !== undefined) entry.stage = stage;
  if (operation !== undefined) entry.operation = operation;
  if (elapsedMs !== undefined) entry.elapsedMs = elapsedMs;
  if (timeoutMs !== undefined) entry.timeoutMs = timeoutMs;
  return entry;
}

const RAW_SOURCES: ReadonlySet<string> = new Set(['mcp', 'acp', 'harness', 'provider_http', 'process_stderr']);

/**
 * The raw evidence an event carries as a raw-message entry: a `raw.frame` event, any message event
 * the recorder stored its frame with (preview fields merged into the payload), or the stderr of a
 * `process.exited`. Returns undefined when the event carries no evidence reference.
 */
export function projectRawFrame(context: ProjectionContext, event: TraceEvent): RawMessageEntry | undefined {
  const ref: EvidenceRef | undefined = event.rawEvidence;
  if (ref === undefined) return undefined;
  const stderr =
    event.kind === EventKind.PROCESS_EXITED && isJsonObject(event.payload.stderr) ? event.payload.stderr : undefined;
  const p: JsonObject = stderr ?? event.payload;
  const source = stderr ? 'process_stderr' : stringField(p, 'source');
  const preview = stringField(p, 'preview');
  const truncated = p.previewTruncated === true || p.truncated === true || ref.truncated;
  let previewObs: Observation<string> = notEmitted();
  if (preview !== undefined)
    previewObs = truncated ? observation('truncated', preview, 'evidence_truncated') : observed(preview);
  const base = entryBase(context, 'raw_message', [event], 'completed');
  return {
    ...base,
    // A frame recorded with its message event shares that event: give it its own id.
    ...(event.kind === EventKind.RAW_FRAME ? {} : { entryId: entryIdOf([event], 'raw_message') }),
    source: source !== undefined && RAW_SOURCES.has(source) ? (source as RawMessageEntry['source']) : 'mcp',
    direction: event.direction ?? 'internal',
    mediaType: (stderr ? undefined : stringField(p, 'mediaType')) ?? ref.mediaType,
    preview: previewObs,
    evidenceRef: ref,
    sizeBytes: numberField(p, 'sizeBytes') ?? ref.originalSizeBytes,
    redacted: true,
  };
}
