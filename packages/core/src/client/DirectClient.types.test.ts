import { execFile } from 'node:child_process';
import * as path from 'node:path';

/**
 * Type test: contract §4 reads `client.initialization.serverInfo`, `client.result` and
 * `client.finalTrace` directly, so under strict TypeScript they must not be typed `| undefined`
 * (reading one too early throws `ClientNotReady` at run time instead; see the lifecycle tests);
 * and `callTool<T>()` types `structuredContent` as `T | undefined` (contract §16, callToolTypes.ts).
 * The fixture's tsconfig references the core project, so the check reads core's built declarations
 * (dist/*.d.ts, what a user's compiler sees; `tsc -b` builds them before Jest), not its sources.
 */
const FIXTURE = path.join(__dirname, '__fixtures__', 'types', 'tsconfig.json');
/**
 * Type-checks a project as `tsc --noEmit -p` would, but with `--skip-built-by`:
 * the package sources it imports (which `tsc -b` builds and type-checks) get only a syntax check here.
 */
/** The repository's build tsconfig (`tsc -b`): what it compiles is type-checked there. */
const BUILD_TSCONFIG = path.join(__dirname, '..', '..', '..', '..', 'tsconfig.json');
const TYPE_CHECK_PROJECTS = path.join(__dirname, '..', '..', '..', '..', 'scripts', 'type-check-projects.js');

function typeCheck(tsconfig: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [TYPE_CHECK_PROJECTS, '--skip-built-by', BUILD_TSCONFIG, tsconfig],
      (error, stdout, stderr) => {
        if (error) reject(new Error(`${TYPE_CHECK_PROJECTS} failed: ${error.message}\n${stdout}${stderr}`));
        else resolve((JSON.parse(stdout) as { code: number; output: string }[])[0]!);
      },
    );
  });
}

test('the contract usage of initialization, result, finalTrace and callTool<T> type-checks', async () => {
  const { code, output } = await typeCheck(FIXTURE);
  expect(output).toBe('');
  expect(code).toBe(0);
}, 120_000);
