import { M3Error } from '../../errors';
import type { HarnessTurnEnd } from '../HarnessDriver';
import type { ClaudeTurnResult } from './ClaudeStreamRecorder';

/** Bound on the CLI's own error text quoted in a turn's error message. */
const MAX_QUOTED = 500;

/**
 * A turn's end from its `result` message: `success` without `is_error` completes; after the kit's
 * interrupt, a non-success result is the CLI's `cancelled`; `is_error` (an API error the CLI gave
 * up on) fails with `claude_code_turn_failed`; another subtype (`error_max_turns`,
 * `error_during_execution`...) fails with `claude_code_turn_incomplete`.
 */
export function claudeTurnEnd(result: ClaudeTurnResult, interrupted: boolean): HarnessTurnEnd {
  const { text, stopReason, subtype } = result;
  if (interrupted && (subtype !== 'success' || result.isError)) return { text, stopReason, outcome: 'cancelled' };
  if (result.isError) {
    const said = (text ?? '').slice(0, MAX_QUOTED);
    return {
      text: null,
      stopReason,
      error: new M3Error('claude_code_turn_failed', `Claude Code ended the turn with an error: ${said}`, {
        subtype,
        harness: 'claude_code',
      }),
    };
  }
  if (subtype !== 'success') {
    return {
      text,
      stopReason,
      error: new M3Error(
        'claude_code_turn_incomplete',
        `Claude Code ended the turn with result subtype ${JSON.stringify(subtype)}`,
        { subtype, harness: 'claude_code' },
      ),
    };
  }
  return { text, stopReason };
}
