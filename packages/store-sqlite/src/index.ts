/** @sf-m3/store-sqlite: the durable ExecutionStore on one SQLite file. Importing performs no I/O. */
export { SQLiteExecutionStore, type SQLiteExecutionStoreOptions } from './SQLiteExecutionStore';
export { SCHEMA_VERSION } from './schema';
export { DEFAULT_RETRY, type RetryPolicy } from './immediateTransaction';
export { mergeResultsDatabases, MAX_MERGE_INPUTS, type MergeReport } from './merge/mergeDatabases';
export type { MergedCounts, MergedTable } from './merge/copyShard';
