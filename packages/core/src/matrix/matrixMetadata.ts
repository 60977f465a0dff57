import { ModelValidationError } from '../errors';
import type { ExecutionRecord } from '../store/records';

/** The prefix of every metadata key a matrix writes; users may not write keys under it. */
export const MATRIX_METADATA_PREFIX = 'm3.matrix.';

/** A metadata value a matrix cell carries (stored as a label, so scalar). */
export type MatrixMetadataValue = string | number | boolean | null;

/** Metadata of a matrix cell: `m3.matrix.*` keys plus any the user adds. */
export type MatrixMetadata = Readonly<Record<string, MatrixMetadataValue>>;

/**
 * Merges user metadata over a cell's generated metadata. Keys under `m3.matrix.` are reserved and
 * values must be scalars (finite numbers), so they can become aggregation labels.
 */
export function mergeMatrixMetadata(generated: MatrixMetadata, user: unknown): MatrixMetadata {
  if (user === undefined) return generated;
  if (typeof user !== 'object' || user === null || Array.isArray(user)) {
    throw new ModelValidationError("matrix cell metadata must be an object of key → scalar, e.g. { variant: 'a' }");
  }
  const merged: Record<string, MatrixMetadataValue> = { ...generated };
  for (const [key, value] of Object.entries(user as Record<string, unknown>)) {
    if (key.startsWith(MATRIX_METADATA_PREFIX)) {
      throw new ModelValidationError(
        `matrix cell metadata key '${key}' is reserved: keys under '${MATRIX_METADATA_PREFIX}' are set by the matrix`,
      );
    }
    const scalar = value === null || ['string', 'number', 'boolean'].includes(typeof value);
    if (!scalar) {
      throw new ModelValidationError(
        `matrix cell metadata value for '${key}' must be a string, number, boolean or null`,
      );
    }
    if (typeof value === 'number' && !Number.isFinite(value)) {
      throw new ModelValidationError(`matrix cell metadata value for '${key}' must be a finite number`);
    }
    merged[key] = value as MatrixMetadataValue;
  }
  return Object.freeze(merged);
}

/** Label form of metadata: every value a string (`null` becomes `'null'`), as stored labels are. */
function metadataLabels(metadata: MatrixMetadata): Record<string, string> {
  return Object.fromEntries(
    Object.entries(metadata).map(([key, value]) => [key, typeof value === 'string' ? value : JSON.stringify(value)]),
  );
}

/** The execution labels a cell's executions (and so their evaluations) carry. */
export function matrixExecutionLabels(input: {
  matrixId: string;
  trial: number;
  metadata: MatrixMetadata;
}): Partial<ExecutionRecord['labels']> {
  return { matrixId: input.matrixId, trial: String(input.trial), metadata: metadataLabels(input.metadata) };
}
