// Reads a project's Jest config the way `m3 test` does (the Jest process answers before Jest
// starts), then ends that process without running Jest: for tests of the answer and the gates.
import type { LoadedJestConfig } from './jestConfigAnswer';
import { startJest } from './spawnJest';

/** The project's Jest config in `folder`, read with `env` (and Jest's `--config`, when given). */
export async function readJestConfig(
  folder: string,
  env: NodeJS.ProcessEnv = process.env,
  configArg: string | null = null,
): Promise<LoadedJestConfig> {
  const jest = startJest({ cwd: folder, args: [], env, stdoutToStderr: true, query: { folder, configArg } });
  const config = await jest.config;
  const exit = await jest.stop();
  if (exit.code !== 0) throw new Error(`the Jest process told to stop exited with ${JSON.stringify(exit)}`);
  return config;
}
