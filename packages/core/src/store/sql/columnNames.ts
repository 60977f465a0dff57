import type { SqlDialect } from './SqlDialect';

/** `columns` as the store of `dialect` names them: the logical `metadata` column is its own. */
export function columnNames(dialect: Pick<SqlDialect, 'metadataColumn'>, columns: readonly string[]): string[] {
  return columns.map((column) => (column === 'metadata' ? dialect.metadataColumn : column));
}
