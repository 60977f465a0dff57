// The `test imports` check of `m3 doctor`: every relative import in the project's test files names
// a file, so no test file stops with "Cannot find module". It reads the files as text; a path your
// own moduleNameMapper rewrites is not seen, so a miss is a warning, not a failure.
import type { DoctorCheck } from './doctorChecks';
import { scanTestImports } from '../project/testImports';

/** How many misses the check lists before "and N more". */
const LISTED = 3;

/** The `test imports` check for the project in `cwd`. */
export function checkTestImports(cwd: string): DoctorCheck {
  const scan = scanTestImports(cwd);
  const read = `${scan.importsRead} relative import(s) in ${scan.filesRead} test file(s)`;
  if (scan.unresolved.length === 0) return { name: 'test imports', status: 'ok', detail: `${read} resolve` };
  const shown = scan.unresolved.slice(0, LISTED).map((miss) => `'${miss.specifier}' at ${miss.at}`);
  const more = scan.unresolved.length > LISTED ? `, and ${scan.unresolved.length - LISTED} more` : '';
  return {
    name: 'test imports',
    status: 'warn',
    detail: `${scan.unresolved.length} of ${read} name no file: ${shown.join(', ')}${more}`,
    fix: 'correct the path (an ESM project writes ./x.js for x.ts, which the sf-m3 preset maps), or ignore this if your own moduleNameMapper maps it',
  };
}
