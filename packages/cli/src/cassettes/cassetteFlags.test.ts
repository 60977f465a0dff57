import { validateTestOptions } from '../options/testOptions';
import { jestChildEnv } from '../jest/jestChildEnv';
import { applyCassetteFlags, parseCassetteFlags, withCiArgument } from './cassetteFlags';

const options = (raw: Parameters<typeof validateTestOptions>[0]) => validateTestOptions(raw, '/project');

describe('m3 test cassette flags (contract §24)', () => {
  test('--cassettes and --update-cassettes reach Jest as M3_CASSETTES and M3_UPDATE_CASSETTES', () => {
    for (const mode of ['auto', 'record', 'replay', 'off']) {
      const env = jestChildEnv(
        { M3_UPDATE_CASSETTES: '1' },
        options({ serverTokens: [], cassettes: mode }),
        'run-x',
        [],
      );
      expect(env.M3_CASSETTES).toBe(mode);
      expect(env.M3_UPDATE_CASSETTES).toBeUndefined();
    }
    const update = jestChildEnv(
      { M3_CASSETTES: 'replay' },
      options({ serverTokens: [], updateCassettes: true }),
      'run-x',
      [],
    );
    expect(update.M3_UPDATE_CASSETTES).toBe('1');
    expect(update.M3_CASSETTES).toBeUndefined();
    expect(parseCassetteFlags({ cassettes: 'record', updateCassettes: true })).toEqual({
      mode: 'record',
      update: true,
      ci: false,
    });
  });

  test('without a flag, an inherited M3_CASSETTES stays, and a bad one stops the run', () => {
    const plain = options({ serverTokens: [] });
    expect(jestChildEnv({ M3_CASSETTES: 'off' }, plain, 'run-x', []).M3_CASSETTES).toBe('off');
    expect(jestChildEnv({}, plain, 'run-x', []).M3_CASSETTES).toBeUndefined();
    expect(() => jestChildEnv({ M3_CASSETTES: 'sometimes' }, plain, 'run-x', [])).toThrow(
      'environment: M3_CASSETTES (m3 test --cassettes) is "sometimes", which is not a cassette mode; use one of auto, record, replay, off',
    );
    expect(() => applyCassetteFlags({ M3_UPDATE_CASSETTES: 'maybe' }, parseCassetteFlags({}))).toThrow(
      'M3_UPDATE_CASSETTES is "maybe"',
    );
  });

  test('a bad mode, and --update-cassettes with another mode, are usage errors naming the flag', () => {
    expect(() => parseCassetteFlags({ cassettes: 'live' })).toThrow(
      '--cassettes: "live" is not a cassette mode; use one of auto, record, replay, off',
    );
    expect(() => parseCassetteFlags({ cassettes: 'auto', updateCassettes: true })).toThrow(
      '--update-cassettes: re-records what runs, so it cannot go with --cassettes auto; drop --cassettes auto',
    );
  });

  test('--ci is handed to Jest once', () => {
    const ci = parseCassetteFlags({ ci: true });
    expect(withCiArgument(['tests/a.test.ts', '-t', 'x'], ci)).toEqual(['--ci', 'tests/a.test.ts', '-t', 'x']);
    expect(withCiArgument(['--ci'], ci)).toEqual(['--ci']);
    expect(withCiArgument(['tests'], parseCassetteFlags({}))).toEqual(['tests']);
  });
});
