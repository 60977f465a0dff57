import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { M3Error } from '../errors/M3Error';
import { isObject } from '../json';
import { CASSETTE_SCHEMA_VERSION, type CassetteExchange, type CassetteFileContent } from './CassetteFormat';

/** `__cassettes__/<test file basename>.cassette.json` beside the test file (contract §24). */
export function cassetteFileOf(testFile: string): string {
  return join(dirname(testFile), '__cassettes__', `${basename(testFile)}.cassette.json`);
}

/**
 * The cassette at `file`, or null when there is none. A file this version cannot read (another
 * `schemaVersion`, broken JSON, a wrong shape) is an M3Error naming the file and the fix; the file
 * is left as it is.
 */
export function readCassetteFile(
  file: string,
  testPath: string,
): { readonly content: CassetteFileContent; readonly text: string } | null {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw unreadable(file, testPath, `cannot be read (${(error as Error).message})`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw unreadable(file, testPath, `is not valid JSON (${(error as Error).message})`);
  }
  if (!isObject(parsed)) throw unreadable(file, testPath, 'is not a JSON object');
  if (parsed.schemaVersion !== CASSETTE_SCHEMA_VERSION) {
    throw unreadable(
      file,
      testPath,
      `has schemaVersion ${JSON.stringify(parsed.schemaVersion) ?? 'missing'}, and this sf-m3 reads version ${CASSETTE_SCHEMA_VERSION}`,
    );
  }
  const problem = shapeProblem(parsed.tests);
  if (problem !== null) throw unreadable(file, testPath, problem);
  return { content: parsed as unknown as CassetteFileContent, text };
}

function unreadable(file: string, testPath: string, why: string): M3Error {
  return new M3Error(
    'cassette_file_invalid',
    `cassette file ${file} ${why}: re-record it with \`npx m3 test ${testPath} --update-cassettes\`, or delete the file`,
    { file, testPath },
  );
}

/** What is wrong with the `tests` of a cassette, or null. */
function shapeProblem(tests: unknown): string | null {
  if (!isObject(tests)) return 'has no "tests" object';
  for (const [name, entry] of Object.entries(tests)) {
    if (!isObject(entry) || !isObject(entry.channels)) return `has no "channels" object for test "${name}"`;
    for (const [channel, exchanges] of Object.entries(entry.channels)) {
      if (!Array.isArray(exchanges) || !exchanges.every(isExchange)) {
        return `has malformed exchanges in test "${name}", channel "${channel}"`;
      }
    }
  }
  return null;
}

function isExchange(value: unknown): value is CassetteExchange {
  if (!isObject(value) || !isObject(value.request) || !isObject(value.response)) return false;
  const { request, response } = value;
  return (
    typeof request.method === 'string' &&
    typeof request.path === 'string' &&
    isObject(request.headers) &&
    'body' in request &&
    typeof response.status === 'number' &&
    isObject(response.headers) &&
    (response.events === undefined ||
      (Array.isArray(response.events) && response.events.every((e) => typeof e === 'string')))
  );
}

/**
 * The file's text: tests sorted, channels sorted (exchanges keep their order), pretty-printed with
 * two spaces and a trailing newline, so the same content always gives the same bytes.
 */
export function serializeCassette(content: CassetteFileContent): string {
  const tests: Record<string, { channels: Record<string, readonly CassetteExchange[]> }> = {};
  for (const name of Object.keys(content.tests).sort()) {
    const channels: Record<string, readonly CassetteExchange[]> = {};
    const entry = content.tests[name]!;
    for (const channel of Object.keys(entry.channels).sort()) channels[channel] = entry.channels[channel]!;
    tests[name] = { channels };
  }
  return `${JSON.stringify({ schemaVersion: content.schemaVersion, tests }, null, 2)}\n`;
}

/**
 * Writes `text` to `file` without ever leaving a half-written file: a temporary file beside it,
 * then a rename. Creates `__cassettes__/` when needed.
 */
export function writeCassetteFile(file: string, text: string): void {
  mkdirSync(dirname(file), { recursive: true });
  const temp = join(dirname(file), `.${basename(file)}.${process.pid}.${Date.now()}.tmp`);
  try {
    writeFileSync(temp, text, { encoding: 'utf8', mode: 0o644 });
    renameSync(temp, file);
  } catch (error) {
    rmSync(temp, { force: true });
    throw new M3Error(
      'cassette_write_failed',
      `could not write cassette file ${file} (${(error as Error).message}): check that its folder is writable`,
      { file },
      { cause: error },
    );
  }
}
