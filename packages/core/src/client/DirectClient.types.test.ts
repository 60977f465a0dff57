import { execFile } from 'node:child_process';
import * as path from 'node:path';

/**
 * Type test: contract §4 reads `client.initialization.serverInfo`, `client.result` and
 * `client.finalTrace` directly, so under strict TypeScript they must not be typed `| undefined`
 * (reading one too early throws `ClientNotReady` at run time instead; see the lifecycle tests);
 * and `callTool<T>()` types `structuredContent` as `T | undefined` (contract §16, callToolTypes.ts).
 */
const FIXTURE = path.join(__dirname, '__fixtures__', 'types', 'tsconfig.json');
const TSC = require.resolve('typescript/bin/tsc');

function typeCheck(tsconfig: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [TSC, '--noEmit', '-p', tsconfig], (error, stdout, stderr) => {
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, output: `${stdout}${stderr}` });
    });
  });
}

test('the contract usage of initialization, result, finalTrace and callTool<T> type-checks', async () => {
  const { code, output } = await typeCheck(FIXTURE);
  expect(output).toBe('');
  expect(code).toBe(0);
}, 120_000);
