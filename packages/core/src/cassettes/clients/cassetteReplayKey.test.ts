import { CASSETTE_MODES } from '../CassetteMode';
import { CASSETTE_REPLAY_KEY, keyOrReplayPlaceholder } from './cassetteReplayKey';

describe('keyOrReplayPlaceholder', () => {
  it('keeps a key that is set, in every mode', () => {
    for (const mode of [...CASSETTE_MODES, null]) expect(keyOrReplayPlaceholder('sk-own', mode)).toBe('sk-own');
  });

  it('gives the placeholder for an unset or blank key only in replay', () => {
    expect(CASSETTE_REPLAY_KEY).toBe('m3-cassette-replay');
    expect(keyOrReplayPlaceholder(undefined, 'replay')).toBe(CASSETTE_REPLAY_KEY);
    expect(keyOrReplayPlaceholder('  ', 'replay')).toBe(CASSETTE_REPLAY_KEY);
    for (const mode of ['auto', 'record', 'off', null] as const) {
      expect(keyOrReplayPlaceholder(undefined, mode)).toBeUndefined();
    }
  });
});
