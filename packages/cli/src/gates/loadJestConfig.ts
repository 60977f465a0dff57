// Reads the project's Jest config the way Jest itself does, for the gates in
// `testEnvironmentOptions.m3`: the project's own `jest-config` (`readInitialOptions`) finds the file
// (jest.config.{js,ts,mjs,cjs,cts,mts,json}, the "jest" key of package.json, `--config`, parents)
// and loads it — ESM by import(), TypeScript by Node's type stripping or the loader Jest uses
// (ts-node, or esbuild-register named in a `@jest-config-loader` docblock), a function awaited. It
// runs in a short-lived child `node`, so the user's config code never runs inside `m3` and import()
// works wherever `m3` runs; its answer comes back on fd 3, whatever the config prints.
import { spawnSync } from 'node:child_process';
import { dirname, isAbsolute, relative, resolve } from 'node:path';
import { resolveJestBin } from '../jest/spawnJest';

/** What the config gave: where it is (relative to the project) and its `testEnvironmentOptions.m3`. */
export type LoadedJestConfig =
  | { readonly status: 'loaded'; readonly file: string; readonly m3: unknown }
  /** No config anywhere Jest looks (Jest then runs with its defaults). */
  | { readonly status: 'none' }
  /** The config does not load: Jest reports it and fails the run, which no gate could pass. */
  | { readonly status: 'failed'; readonly message: string };

/** Longest a config may take to load before its gates are left to Jest. */
export const JEST_CONFIG_TIMEOUT_MS = 30_000;

const READER = `
const { writeSync } = require('node:fs');
const [jestConfig, folder, configArg] = process.argv.slice(1);
const answer = (value) => writeSync(3, JSON.stringify(value));
require(jestConfig)
  .readInitialOptions(configArg === '' ? undefined : configArg, { packageRootOrConfig: folder })
  .then(({ config, configPath }) => {
    const options = config && config.testEnvironmentOptions;
    const m3 = options && typeof options === 'object' ? options.m3 : undefined;
    answer({ status: 'loaded', configPath, m3: m3 === undefined ? null : m3 });
  })
  .catch((error) => {
    const message = String((error && error.message) || error);
    answer(/^Could not find a config file/.test(message) ? { status: 'none' } : { status: 'failed', message });
  });
`;

/** The project's `jest-config` module: beside its Jest (hoisted, or under jest-cli), else the CLI's own. */
export function resolveJestConfigModule(folder: string): string {
  const jestDir = dirname(dirname(resolveJestBin(folder)));
  const paths = [jestDir];
  try {
    paths.push(dirname(require.resolve('jest-cli/package.json', { paths: [jestDir] })));
  } catch {
    // jest without its own jest-cli: the hoisted copy is found from jestDir
  }
  return require.resolve('jest-config', { paths });
}

/**
 * `--config PATH` / `--config=PATH` / `-c PATH` among the Jest arguments (a path made absolute
 * against `folder`, or Jest's inline JSON), else null.
 */
export function jestConfigArgument(jestArgs: readonly string[], folder: string): string | null {
  let value: string | undefined;
  jestArgs.forEach((arg, i) => {
    if (arg === '--config' || arg === '-c') value = jestArgs[i + 1];
    else if (arg.startsWith('--config=')) value = arg.slice('--config='.length);
  });
  if (value === undefined || value === '') return null;
  return value.trim().startsWith('{') || isAbsolute(value) ? value : resolve(folder, value);
}

function shownFile(folder: string, configPath: string): string {
  const file = relative(folder, configPath) || configPath;
  return file === 'package.json' || file.endsWith('/package.json') ? `${file} "jest"` : file;
}

/** Loads the Jest config of the project in `folder` (with the environment Jest will get). */
export function loadJestConfig(folder: string, env: NodeJS.ProcessEnv, configArg: string | null): LoadedJestConfig {
  let jestConfig: string;
  try {
    jestConfig = resolveJestConfigModule(folder);
  } catch (error) {
    return { status: 'failed', message: `jest-config is not installed: ${(error as Error).message.split('\n')[0]}` };
  }
  const child = spawnSync(process.execPath, ['-e', READER, jestConfig, folder, configArg ?? ''], {
    cwd: folder,
    env,
    stdio: ['ignore', 'ignore', 'ignore', 'pipe'],
    timeout: JEST_CONFIG_TIMEOUT_MS,
    encoding: 'utf8',
  });
  const text = typeof child.output?.[3] === 'string' ? child.output[3] : '';
  let answer: { status?: unknown; configPath?: unknown; m3?: unknown; message?: unknown };
  try {
    answer = JSON.parse(text) as typeof answer;
  } catch {
    const how = child.signal !== null ? `was stopped by ${child.signal}` : `exited with status ${String(child.status)}`;
    return { status: 'failed', message: `reading the Jest config ${how} without an answer` };
  }
  if (answer.status === 'loaded' && typeof answer.configPath === 'string') {
    return { status: 'loaded', file: shownFile(folder, answer.configPath), m3: answer.m3 ?? undefined };
  }
  if (answer.status === 'none') return { status: 'none' };
  return { status: 'failed', message: String(answer.message) };
}
