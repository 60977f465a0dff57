// A case id as reports show it. Case ids are stored as `<suite>::<full test name>` (contract §11),
// and a test's full name starts with its describe block, which is usually the suite: the stored id
// `git agent::git agent answers a status question` is shown as `git agent › answers a status question`.
// The stored id is unchanged (baselines compare runs by it); only its display drops the repetition.

/** The separator reports put between a suite and the rest of a case's name. */
export const CASE_SEPARATOR = ' › ';

/** `caseId` without its suite name repeated; ids of another form are returned as they are. */
export function caseLabel(caseId: string): string {
  const at = caseId.indexOf('::');
  if (at <= 0) return caseId;
  const suite = caseId.slice(0, at);
  const rest = caseId.slice(at + 2);
  if (rest === suite) return suite;
  if (rest.startsWith(`${suite} `)) return `${suite}${CASE_SEPARATOR}${rest.slice(suite.length + 1)}`;
  return `${suite}${CASE_SEPARATOR}${rest}`;
}
