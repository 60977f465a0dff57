import type { CassetteMode } from '../CassetteMode';

/**
 * The API key a model client is given in mode `replay` when its key variable is unset (contract
 * §24): the proxy answers from the cassette and never forwards, so the key never leaves the kit.
 * A fixed, public string: not a secret, never a redaction canary.
 */
export const CASSETTE_REPLAY_KEY = 'm3-cassette-replay';

/**
 * The key a client runs with: its own when set, else the replay placeholder in mode `replay`, else
 * undefined (the client's own key rules then apply: every other mode needs the real key).
 */
export function keyOrReplayPlaceholder(key: string | undefined, mode: CassetteMode | null): string | undefined {
  if (key !== undefined && key.trim() !== '') return key;
  return mode === 'replay' ? CASSETTE_REPLAY_KEY : undefined;
}
