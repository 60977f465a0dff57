import type { TraceRecorder } from '../../trace/TraceRecorder';
import type { AcpFrameObserver } from './acpFraming';

/**
 * Keeps every raw ACP frame both ways as a `raw.frame` event (origin `wire_observed`, source
 * `acp`, redacted and bounded by the recorder), and a line that is not a JSON object also as an
 * `acp_malformed_frame` diagnostic.
 */
export function frameEvidence(
  recorder: TraceRecorder,
  scope: () => { sessionId: string; turnId?: string },
  connectionId: string,
): AcpFrameObserver {
  const frame = (direction: 'sdk_to_harness' | 'harness_to_sdk') => (raw: Buffer) => {
    if (recorder.finished) return;
    const current = scope();
    recorder.record('raw.frame', {
      ...current,
      phase: current.turnId !== undefined ? 'turn' : 'startup',
      origin: 'wire_observed',
      direction,
      connectionId,
      payload: {},
      raw,
      rawSource: 'acp',
    });
  };
  return {
    sent: frame('sdk_to_harness'),
    received: frame('harness_to_sdk'),
    malformed: (_raw, reason) => {
      if (recorder.finished) return;
      const payload = {
        code: 'acp_malformed_frame',
        message: `the agent wrote a line that is ${reason}; it was skipped`,
      };
      recorder.record('diagnostic', { ...scope(), origin: 'normalized', direction: 'internal', payload });
    },
  };
}
