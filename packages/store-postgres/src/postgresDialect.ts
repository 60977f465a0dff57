import type { SqlDialect } from '@sf-m3/core/store';

/** The instant as a UTC timestamp (the text is canonical ISO-8601 with `Z`). */
const utc = (time: string): string => `(${time}::timestamptz AT TIME ZONE 'UTC')`;

/** PostgreSQL's spelling of the SQL the stores share (core's `store/sql`, contract §10). */
export const POSTGRES_DIALECT: SqlDialect = {
  metadataColumn: 'metadata',
  nullText: 'NULL::text',
  nullReal: 'NULL::double precision',
  isTrue: (column) => column,
  bind(params, value) {
    params.push(value);
    return `$${params.length}`;
  },
  inList(column, values, params) {
    params.push(values);
    return `${column} = ANY($${params.length}::text[])`;
  },
  metadataField(metadata, key, params) {
    params.push(key);
    return `(${metadata} ->> $${params.length}::text)`;
  },
  timeBucket(bucket, time) {
    switch (bucket) {
      case 'time.hour':
        return `to_char(${utc(time)}, 'YYYY-MM-DD"T"HH24":00:00Z"')`;
      case 'time.day':
        return `to_char(${utc(time)}, 'YYYY-MM-DD')`;
      case 'time.week':
        return `to_char(date_trunc('week', ${utc(time)}), 'YYYY-MM-DD')`;
    }
  },
};
