// Jest's own `--config` among the arguments `m3 test` passes to Jest: the Jest process reads the
// project's config from there before Jest starts (spawnJest.ts, bin/jestAfterConfig.js), for the
// gates in `testEnvironmentOptions.m3`.
import { isAbsolute, resolve } from 'node:path';

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
