import type { SqlDialect } from '@sf-m3/core/store';

/** SQLite's spelling of the SQL the stores share (core's `store/sql`, contract §10). */
export const SQLITE_DIALECT: SqlDialect = {
  metadataColumn: 'metadata_json',
  nullText: 'NULL',
  nullReal: 'NULL',
  isTrue: (column) => `${column} = 1`,
  bind(params, value) {
    params.push(value);
    return '?';
  },
  inList(column, values, params) {
    params.push(...values);
    return `${column} IN (${values.map(() => '?').join(', ')})`;
  },
  // Keys were validated to hold no quote or backslash, so they are safe inside the JSON path.
  metadataField: (metadata, key) => `json_extract(${metadata}, '$."${key}"')`,
  timeBucket(bucket, time) {
    switch (bucket) {
      case 'time.hour':
        return `strftime('%Y-%m-%dT%H:00:00Z', ${time})`;
      case 'time.day':
        return `date(${time})`;
      case 'time.week':
        return `date(${time}, 'weekday 0', '-6 days')`;
    }
  },
};
