import { M3Error } from '../../errors';
import type { JsonObject } from '../../json';
import type { HarnessTurnEnd } from '../HarnessDriver';
import type { CodexTurnCompletion } from './CodexNotifications';

/**
 * The CLI as `session.created` names it: `codex`, the version from the `initialize` answer's
 * `userAgent` (`<client>/<version> (...)`), the user agent itself, and the thread's provider,
 * sandbox and approval policy as `thread/start` answered.
 */
export function codexAgentInfo(init: Record<string, unknown>, started: Record<string, unknown>): JsonObject {
  const userAgent = typeof init.userAgent === 'string' ? init.userAgent : null;
  const version = userAgent?.match(/^[^/\s]+\/(\S+)/)?.[1] ?? null;
  const pick = (v: unknown) => (typeof v === 'string' ? v : null);
  const sandbox = started.sandbox;
  return {
    name: 'codex',
    version,
    userAgent,
    modelProvider: pick(started.modelProvider),
    approvalPolicy: pick(started.approvalPolicy),
    sandbox:
      typeof sandbox === 'object' && sandbox !== null && 'type' in sandbox
        ? pick((sandbox as { type: unknown }).type)
        : null,
  };
}

/**
 * A `turn/completed` as a turn end: `completed` is a normal end; `interrupted` after the kit's
 * `turn/interrupt` is the turn's cancellation, else a failure (`codex_turn_interrupted`); `failed`
 * is `codex_turn_failed` with Codex's message; anything else `codex_turn_incomplete`.
 */
export function codexTurnEnd(end: CodexTurnCompletion, text: string | null, interruptSent: boolean): HarnessTurnEnd {
  const stopReason = end.status;
  if (stopReason === 'completed') return { text: text ?? '', stopReason };
  if (stopReason === 'interrupted' && interruptSent) return { text, stopReason, outcome: 'cancelled' };
  const code =
    stopReason === 'failed'
      ? 'codex_turn_failed'
      : stopReason === 'interrupted'
        ? 'codex_turn_interrupted'
        : 'codex_turn_incomplete';
  const why = end.errorMessage !== null ? `: ${end.errorMessage}` : '';
  return {
    text,
    stopReason,
    error: new M3Error(code, `codex ended the turn with status ${JSON.stringify(stopReason)}${why}`, {
      status: stopReason,
      turnId: end.turnId,
    }),
  };
}
