/** @sf-m3/store-postgres: the ExecutionStore on PostgreSQL, shared by many processes. Importing performs no I/O. */
export { PostgresExecutionStore, type PostgresExecutionStoreOptions } from './PostgresExecutionStore';
export { SCHEMA_VERSION } from './schema/migrations';
export { describeDatabase, isPostgresUrl, locationSecrets, type PostgresLocation } from './connection/describeDatabase';
