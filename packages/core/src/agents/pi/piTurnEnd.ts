import { M3Error } from '../../errors';
import type { HarnessTurnEnd } from '../HarnessDriver';
import type { PiMessageEnd } from './PiEventProjection';

/**
 * How a Pi turn ended, from its last assistant message's `stopReason`: `stop` completes, `aborted`
 * is the agent's own cancel, `error` is the provider's failure (Pi's `errorMessage`), anything else
 * (`length`...) an incomplete turn.
 */
export function piTurnEnd(last: PiMessageEnd | undefined): HarnessTurnEnd {
  if (last === undefined) {
    return {
      text: null,
      stopReason: null,
      error: new M3Error('pi_turn_incomplete', 'pi ended the turn (agent_end) without an assistant message', {}),
    };
  }
  const { text, stopReason } = last;
  if (stopReason === 'stop') return { text, stopReason };
  if (stopReason === 'aborted') return { text, stopReason, outcome: 'cancelled' };
  if (stopReason === 'error') {
    const why = last.errorMessage ?? 'no message';
    return {
      text: text === '' ? null : text,
      stopReason,
      error: new M3Error('pi_model_error', `pi's model request failed: ${why}`, { stopReason }),
    };
  }
  return {
    text,
    stopReason,
    error: new M3Error('pi_turn_incomplete', `pi ended the turn with stopReason ${JSON.stringify(stopReason)}`, {
      stopReason,
    }),
  };
}
