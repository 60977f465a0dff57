import { resolvePersistence } from './persistenceConfig';

const base = { rootDir: '/project', cwd: '/work' };

describe('resolvePersistence', () => {
  test('is off without M3_RESULTS_DB or testEnvironmentOptions.m3.resultsDb', () => {
    expect(resolvePersistence({ ...base, env: {}, testEnvironmentOptions: {} })).toEqual({ resultsDb: null });
    expect(resolvePersistence({ ...base, env: { M3_RESULTS_DB: '  ' }, testEnvironmentOptions: undefined })).toEqual({
      resultsDb: null,
    });
  });

  test('M3_RESULTS_DB turns it on, relative to the working directory, and wins over the config', () => {
    const options = { m3: { resultsDb: 'config.sqlite' } };
    expect(
      resolvePersistence({ ...base, env: { M3_RESULTS_DB: 'db/x.sqlite' }, testEnvironmentOptions: options }),
    ).toEqual({ resultsDb: '/work/db/x.sqlite' });
  });

  test('testEnvironmentOptions.m3.resultsDb is relative to rootDir', () => {
    expect(
      resolvePersistence({ ...base, env: {}, testEnvironmentOptions: { m3: { resultsDb: '.m3/executions.sqlite' } } }),
    ).toEqual({ resultsDb: '/project/.m3/executions.sqlite' });
  });

  test('refuses malformed options with a message naming the fix', () => {
    expect(() => resolvePersistence({ ...base, env: {}, testEnvironmentOptions: { m3: 'x' } })).toThrow(
      'testEnvironmentOptions.m3 must be an object',
    );
    expect(() => resolvePersistence({ ...base, env: {}, testEnvironmentOptions: { m3: { resultsDb: 3 } } })).toThrow(
      'testEnvironmentOptions.m3.resultsDb must be a non-empty path',
    );
  });
});
