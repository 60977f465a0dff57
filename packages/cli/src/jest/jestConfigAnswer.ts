// The answer the Jest process of `m3 test` gives about the project's Jest config before Jest starts
// (bin/jestAfterConfig.js writes it on fd 3): the config file, as shown to the user, and its
// `testEnvironmentOptions.m3`, where the gates can be written (readGateConfig.ts).
import { dirname, relative } from 'node:path';
import type { Readable } from 'node:stream';
import type { JestExit } from './spawnJest';

/** What the config gave: where it is (relative to the project) and its `testEnvironmentOptions.m3`. */
export type LoadedJestConfig =
  | { readonly status: 'loaded'; readonly file: string; readonly m3: unknown }
  /** No config anywhere Jest looks (Jest then runs with its defaults). */
  | { readonly status: 'none' }
  /** The config does not load: Jest reports it and fails the run, which no gate could pass. */
  | { readonly status: 'failed'; readonly message: string };

/** Longest a config may take to load before its gates are left to Jest. */
export const JEST_CONFIG_TIMEOUT_MS = 30_000;

/** The project's `jest-config` module: beside its Jest (hoisted, or under jest-cli), else the CLI's own. */
export function resolveJestConfigModule(jestBin: string): string {
  const jestDir = dirname(dirname(jestBin));
  const paths = [jestDir];
  try {
    paths.push(dirname(require.resolve('jest-cli/package.json', { paths: [jestDir] })));
  } catch {
    // jest without its own jest-cli: the hoisted copy is found from jestDir
  }
  return require.resolve('jest-config', { paths });
}

function shownFile(folder: string, configPath: string): string {
  const file = relative(folder, configPath) || configPath;
  return file === 'package.json' || file.endsWith('/package.json') ? `${file} "jest"` : file;
}

/** The answer's text as a LoadedJestConfig; `ended` is how the process ended when there is none. */
export function parseConfigAnswer(text: string, folder: string, ended: JestExit | null): LoadedJestConfig {
  let answer: { status?: unknown; configPath?: unknown; m3?: unknown; message?: unknown };
  try {
    answer = JSON.parse(text) as typeof answer;
  } catch {
    const how =
      ended === null
        ? 'failed'
        : ended.signal !== null
          ? `was stopped by ${ended.signal}`
          : `exited with status ${String(ended.code)}`;
    return { status: 'failed', message: `reading the Jest config ${how} without an answer` };
  }
  if (answer.status === 'loaded' && typeof answer.configPath === 'string') {
    return { status: 'loaded', file: shownFile(folder, answer.configPath), m3: answer.m3 ?? undefined };
  }
  if (answer.status === 'none') return { status: 'none' };
  return { status: 'failed', message: String(answer.message) };
}

/**
 * Reads the answer from `stream` (fd 3 of the Jest process) to its end. A process that ends
 * without one, or takes longer than JEST_CONFIG_TIMEOUT_MS, leaves the config's gates to Jest.
 */
export function readConfigAnswer(stream: Readable, folder: string, exit: Promise<JestExit>): Promise<LoadedJestConfig> {
  return new Promise((resolve) => {
    let text = '';
    const timer = setTimeout(() => {
      const message = `reading the Jest config took longer than ${JEST_CONFIG_TIMEOUT_MS / 1000} s`;
      resolve({ status: 'failed', message });
    }, JEST_CONFIG_TIMEOUT_MS);
    timer.unref();
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => (text += chunk));
    stream.once('error', () => undefined);
    stream.once('close', () => {
      clearTimeout(timer);
      // No answer: the process ended first, and how it ended is the message.
      if (text === '')
        void exit.then(
          (ended) => resolve(parseConfigAnswer(text, folder, ended)),
          () => resolve(parseConfigAnswer(text, folder, null)),
        );
      else resolve(parseConfigAnswer(text, folder, null));
    });
  });
}
