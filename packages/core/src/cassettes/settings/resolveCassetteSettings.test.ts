import { M3Error } from '../../errors';
import { resolveCassetteSettings } from './resolveCassetteSettings';

describe('resolveCassetteSettings (contract §24)', () => {
  it('defaults to auto, and to replay under Jest’s ci', () => {
    expect(resolveCassetteSettings({ env: {}, ci: false })).toEqual({ mode: 'auto', update: false });
    expect(resolveCassetteSettings({ env: {}, ci: true })).toEqual({ mode: 'replay', update: false });
  });

  it('ranks the environment over the suite over the project over the default', () => {
    const all = { ci: true, project: 'off', suite: 'record', env: { M3_CASSETTES: 'auto' } };
    expect(resolveCassetteSettings(all).mode).toBe('auto');
    expect(resolveCassetteSettings({ ...all, env: {} }).mode).toBe('record');
    expect(resolveCassetteSettings({ ...all, env: {}, suite: undefined }).mode).toBe('off');
    expect(resolveCassetteSettings({ env: { M3_CASSETTES: '  ' }, ci: false, project: 'replay' }).mode).toBe('replay');
  });

  it('makes --update-cassettes mode record with update, over every other source', () => {
    for (const flag of ['1', 'true']) {
      expect(
        resolveCassetteSettings({ env: { M3_UPDATE_CASSETTES: flag }, ci: true, project: 'off', suite: 'replay' }),
      ).toEqual({ mode: 'record', update: true });
    }
    expect(resolveCassetteSettings({ env: { M3_UPDATE_CASSETTES: '0' }, ci: false })).toEqual({
      mode: 'auto',
      update: false,
    });
    expect(resolveCassetteSettings({ env: { M3_UPDATE_CASSETTES: '1', M3_CASSETTES: 'record' }, ci: false })).toEqual({
      mode: 'record',
      update: true,
    });
  });

  it('refuses a bad mode naming the four modes and where it came from', () => {
    const cases: Array<[Parameters<typeof resolveCassetteSettings>[0], RegExp]> = [
      [{ env: { M3_CASSETTES: 'replayy' }, ci: false }, /^M3_CASSETTES \(m3 test --cassettes\) is "replayy"/],
      [{ env: {}, ci: false, project: 'live' }, /^testEnvironmentOptions\.cassettes in the Jest config is "live"/],
      [{ env: {}, ci: false, project: 3 }, /^testEnvironmentOptions\.cassettes in the Jest config is 3,/],
      [
        { env: {}, ci: false, suite: 'REPLAY', suiteName: 'orders' },
        /^describe\.m3\('orders', \{ cassettes: \{ mode \} \}\) is "REPLAY"/,
      ],
      // A typo is reported even where the environment overrides it.
      [{ env: { M3_CASSETTES: 'auto' }, ci: false, project: 'recrod' }, /is "recrod"/],
    ];
    for (const [sources, message] of cases) {
      let caught: unknown;
      try {
        resolveCassetteSettings(sources);
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(M3Error);
      expect((caught as M3Error).code).toBe('invalid_argument');
      expect((caught as Error).message).toMatch(message);
      expect((caught as Error).message).toContain('use one of auto, record, replay, off');
    }
  });

  it('refuses an update flag it cannot read, and an update with another mode', () => {
    expect(() => resolveCassetteSettings({ env: { M3_UPDATE_CASSETTES: 'yes please' }, ci: false })).toThrow(
      'M3_UPDATE_CASSETTES is "yes please"; set it to 1',
    );
    expect(() =>
      resolveCassetteSettings({ env: { M3_UPDATE_CASSETTES: '1', M3_CASSETTES: 'replay' }, ci: false }),
    ).toThrow('re-records, but M3_CASSETTES is "replay": drop --cassettes replay, or use --cassettes record');
  });
});
