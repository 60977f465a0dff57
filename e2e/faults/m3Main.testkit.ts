// `m3 <args>` through the compiled CLI's `main` (packages/cli/dist/main.js, what the `m3` bin requires
// and runs) in this process: the exit status and what it printed, without a child process. A child
// `m3 runs` or `m3 report` costs about a quarter of a second of CPU to start; the suites that read a
// run back many times read it here, and keep the bin itself for the cases about the process.
import { join } from 'node:path';
import type * as CliMain from '../../packages/cli/src/main';
import { repoRoot } from '../cli.testkit';

/** What one in-process `m3` invocation produced. */
export interface M3MainRun {
  readonly status: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `m3 <args>` in `cwd` with `env` (the environment a child would get) through the CLI's main. */
export async function m3Main(args: readonly string[], cwd: string, env: NodeJS.ProcessEnv): Promise<M3MainRun> {
  const cli = jest.requireActual<typeof CliMain>(join(repoRoot, 'packages', 'cli', 'dist', 'main.js'));
  let stdout = '';
  let stderr = '';
  const status = await cli.main(args, {
    stdout: (text) => void (stdout += text),
    stderr: (text) => void (stderr += text),
    cwd,
    env,
  });
  return { status, stdout, stderr };
}
