// postgres lane: a PostgreSQL URL is a results location everywhere a SQLite path is.
import { resolvePersistence } from '../persistenceConfig';
import { runCanaries } from '../runCanaries';

const base = { rootDir: '/project', cwd: '/work' };
const url = 'postgres://ci:pw-canary@db.internal:5432/m3';

test('M3_RESULTS_DB and testEnvironmentOptions.m3.resultsDb keep a postgres:// URL as given', () => {
  expect(resolvePersistence({ ...base, env: { M3_RESULTS_DB: ` ${url} ` }, testEnvironmentOptions: {} })).toEqual({
    resultsDb: url,
  });
  expect(resolvePersistence({ ...base, env: {}, testEnvironmentOptions: { m3: { resultsDb: url } } })).toEqual({
    resultsDb: url,
  });
});

test("the password of a PostgreSQL M3_RESULTS_DB is one of the run's redaction canaries", () => {
  expect(runCanaries({ M3_RESULTS_DB: url }, null)).toContain('pw-canary');
  expect(runCanaries({ M3_RESULTS_DB: '/work/.m3/executions.sqlite' }, null)).toEqual([]);
});
