// What each trace limitation means — what the trace is missing — in the words the viewer shows
// beside "trace partial". `capture_incomplete` on a direct trace is true of every direct trace
// (contract §5): the client records each JSON-RPC message as the MCP SDK decoded it, so the bytes on the
// wire are not in it; on an agent trace it means the wire capture stopped early.

/** One limitation and what it means. */
export interface LimitationNote {
  readonly limitation: string;
  readonly note: string;
}

const DIRECT_CAPTURE =
  'recorded by the MCP client, not on the wire: every JSON-RPC message sent and received is here, ' +
  'but as the SDK decoded it (the raw frames are those messages re-serialized and redacted), so ' +
  'byte-exact framing, HTTP status lines and headers and SSE event boundaries are not; stdout lines ' +
  'that were not JSON-RPC appear as diagnostics';
const AGENT_CAPTURE =
  'the wire capture stopped before the execution ended (the capture proxy was stopped, or the ' +
  'execution timed out or was cancelled): wire evidence may be missing at the end; see the diagnostics';

const NOTES: Record<string, string> = {
  cleanup_failed: 'a process or temporary folder could not be cleaned up after the execution',
  partial_trace: 'the agent process ended before its turn finished, so the trace stops where it did',
  persistence_failed: 'part of the trace could not be saved to the results database',
  raw_evidence_budget_exceeded: 'raw frames were cut or dropped: the execution passed its 64 MiB evidence budget',
  evidence_budget_exhausted: 'events were dropped or reduced: the execution ran out of its evidence budget',
  diagnostics_summarized: 'repeated diagnostics past the first 20 of a kind are counted, not listed',
};

/** The notes for a trace's limitations; `runtimeKind` is the trace's `runtime.kind` (`direct`, `acp`, …). */
export function limitationNotes(limitations: readonly string[], runtimeKind: string): LimitationNote[] {
  return limitations.map((limitation) => ({
    limitation,
    note:
      limitation === 'capture_incomplete'
        ? runtimeKind === 'direct'
          ? DIRECT_CAPTURE
          : AGENT_CAPTURE
        : (NOTES[limitation] ?? 'see the diagnostics'),
  }));
}
