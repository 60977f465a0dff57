// postgres lane: `--results-db` / `M3_RESULTS_DB` accept a PostgreSQL URL, shown without credentials.
import { displayPath } from '../displayPath';
import { resolveResultsDb } from '../options/testOptions';

const url = 'postgresql://ci:pw-canary@db.internal/m3';

test('--results-db keeps a URL; without it a M3_RESULTS_DB URL is used; SQLite paths resolve as before', () => {
  expect(resolveResultsDb(url, '/work')).toBe(url);
  expect(resolveResultsDb(undefined, '/work', { M3_RESULTS_DB: url })).toBe(url);
  expect(resolveResultsDb('db.sqlite', '/work', { M3_RESULTS_DB: url })).toBe('/work/db.sqlite');
  expect(resolveResultsDb(undefined, '/work', { M3_RESULTS_DB: 'x.sqlite' })).toBe('/work/.m3/executions.sqlite');
});

test('a URL is displayed with its credentials redacted', () => {
  expect(displayPath('/work', url)).toBe('postgresql://[REDACTED]@db.internal/m3');
  expect(displayPath('/work', '/work/.m3/executions.sqlite')).toBe('.m3/executions.sqlite');
});
