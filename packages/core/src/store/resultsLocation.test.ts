import { isPostgresUrl, resultsLocationSecrets, showResultsLocation } from './resultsLocation';

test('postgres:// and postgresql:// URLs are PostgreSQL locations; paths are not', () => {
  expect(isPostgresUrl('postgres://db/m3')).toBe(true);
  expect(isPostgresUrl(' POSTGRESQL://u:p@db:5432/m3 ')).toBe(true);
  expect(isPostgresUrl('.m3/executions.sqlite')).toBe(false);
  expect(isPostgresUrl('/srv/postgres/executions.sqlite')).toBe(false);
});

test('a URL is shown without its credentials and its password is a canary', () => {
  const url = 'postgres://ci:s3cr%40t-pw@db.internal:5432/m3?sslmode=require';
  expect(showResultsLocation(url)).toBe('postgres://[REDACTED]@db.internal:5432/m3?sslmode=require');
  expect(resultsLocationSecrets(url)).toEqual(['s3cr%40t-pw', 's3cr@t-pw']);
  expect(showResultsLocation('.m3/executions.sqlite')).toBe('.m3/executions.sqlite');
  expect(resultsLocationSecrets('postgres://db/m3')).toEqual([]);
});
