import { canonicalJson } from '../evaluation/subjectDigest';
import type { CassetteRequest } from './CassetteFormat';

/**
 * The string two normalized requests share exactly when they match (contract §24): method, path,
 * allowlisted headers and body, with object keys sorted at every level.
 */
export function cassetteRequestKey(request: CassetteRequest): string {
  return canonicalJson({
    method: request.method,
    path: request.path,
    headers: request.headers,
    body: request.body,
  });
}
