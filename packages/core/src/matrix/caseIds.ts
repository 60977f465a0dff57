import { createHash } from 'node:crypto';
import { ModelValidationError } from '../errors';
import type { JsonValue } from '../json';
import { canonicalJson } from '../evaluation/subjectDigest';

/** The most characters a matrix, server case or tool case name (or id) may have. */
export const MAX_NAME_LENGTH = 256;

/** Checks a name or id used in case ids: a non-empty string of at most 256 characters once trimmed. */
export function checkMatrixName(value: unknown, what: string, example: string): string {
  if (typeof value !== 'string' || value.trim() === '') {
    throw new ModelValidationError(`${what} must be a non-empty string, e.g. ${example}`);
  }
  const trimmed = value.trim();
  if (trimmed.length > MAX_NAME_LENGTH) {
    throw new ModelValidationError(`${what} is longer than ${MAX_NAME_LENGTH} characters: use a shorter one`);
  }
  return trimmed;
}

/** The cell id, stable across trials: `server/tool`. */
export function cellIdOf(serverName: string, toolId: string): string {
  return `${serverName}/${toolId}`;
}

/** The case id of one trial of a cell: `server/tool`, plus `/trial-N` when the matrix has trials > 1. */
export function caseIdOf(cellId: string, trial: number, trialCount: number): string {
  return trialCount > 1 ? `${cellId}/trial-${trial}` : cellId;
}

/**
 * The case id every trial of a cell is saved under, so pass^k / pass@k count a cell once:
 * `<matrixId>:<cellId>` (upstream's `case_id`).
 */
export function executionCaseIdOf(matrixId: string, cellId: string): string {
  return `${matrixId}:${cellId}`;
}

/**
 * A matrix id derived from what the matrix calls (servers, tools, arguments; not its trials):
 * `matrix-` + the first 24 hex of the sha256 of its canonical JSON. The same matrix gets the same
 * id in every run, so runs can be compared.
 */
export function deriveMatrixId(content: JsonValue): string {
  return `matrix-${createHash('sha256').update(canonicalJson(content)).digest('hex').slice(0, 24)}`;
}
