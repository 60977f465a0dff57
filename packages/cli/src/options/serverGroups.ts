// `--server http --url URL [--header K=V]… [--bearer-env NAME] [--name N]` and
// `--server stdio --command CMD [--arg V]… [--env K=V]… [--name N]` groups. Commander sees each
// flag as a plain repeatable option; the order they appeared in is kept here and grouped.
import { CREDENTIAL_QUERY_PARAMS, parseEndpointUrl, commandLineCanaries } from '@sf-m3/core/internal';
import { SERVER_FIELD_FLAGS, type ServerToken } from './serverTokens';
import { UsageError } from './UsageError';

export { SERVER_FIELD_FLAGS, type ServerToken };

/**
 * `--bearer-env NAME`: `HTTPServer({ auth: { kind: 'bearer', token: secretFromEnv(NAME) } })` (contract
 * §17) in JSON form; only the variable's name travels, each worker reads the token at connect time.
 */
export interface BearerFromEnv {
  kind: 'bearer';
  token: { kind: 'secret_ref'; env: string };
}

/** A server chosen on the command line; travels to Jest as JSON in `M3_SERVERS`. */
export type ServerSelection =
  | {
      transport: 'http';
      name: string;
      url: string;
      headers: Record<string, string>;
      trust?: 'default' | 'trusted_private';
      auth?: BearerFromEnv;
    }
  | { transport: 'stdio'; name: string; command: string; args: string[]; env: Record<string, string> };

const HTTP_FIELDS = new Set(['url', 'header', 'bearer-env', 'trust', 'name']);
const STDIO_FIELDS = new Set(['command', 'arg', 'env', 'name']);
const SINGLE_FIELDS = new Set(['url', 'bearer-env', 'trust', 'command', 'name']);
const ENV_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;
const NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;
const KEY_PATTERN = /^[A-Za-z_][A-Za-z0-9_.-]*$/;

/** `Name: value`, the way curl and HTTP write a header. */
const HEADER_LINE = /^([A-Za-z0-9_-]+):\s*([\s\S]*)$/;

function parsePair(flag: string, value: string): [string, string] {
  const line = flag === 'header' ? HEADER_LINE.exec(value) : null;
  if (line !== null) return [line[1] as string, line[2] as string];
  const eq = value.indexOf('=');
  const key = eq > 0 ? value.slice(0, eq).trim() : '';
  if (!KEY_PATTERN.test(key)) {
    // The value may be a secret: the message names the flag and the expected shape, never the value.
    throw new UsageError(`--${flag}`, `expected KEY=VALUE with a name before "=" (e.g. --${flag} NAME=value)`);
  }
  return [key, value.slice(eq + 1)];
}

/** Validates an `--url` value (http(s), no credentials, the kit's endpoint rules); returns its href. */
export function validateUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError('--url', 'is not a valid URL; give an absolute http:// or https:// URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError('--url', `must use http or https, not ${url.protocol.replace(':', '')}`);
  }
  if (url.username !== '' || url.password !== '') {
    throw new UsageError('--url', 'must not carry credentials; pass them with --header Authorization=...');
  }
  if (url.port === '0') throw new UsageError('--url', 'port 0 is not a reachable port');
  for (const param of url.searchParams.keys()) {
    if (CREDENTIAL_QUERY_PARAMS.has(param.toLowerCase())) {
      throw new UsageError('--url', `must not carry the credential-like query parameter "${param}"; use --header`);
    }
  }
  try {
    // The core's full rules too (e.g. `session_token`), so a URL the kit would refuse never reaches the saved argv.
    parseEndpointUrl(url);
  } catch (error) {
    throw new UsageError(
      '--url',
      error instanceof Error ? error.message.replace(/^HTTPServer url /, '') : 'is refused',
    );
  }
  return url.href;
}

/** `--bearer-env NAME` as the group's `auth`; the name must be a variable name, and no Authorization header besides. */
function bearerFromEnv(name: string | undefined, headers: Record<string, string>): BearerFromEnv | undefined {
  if (name === undefined) return undefined;
  if (!ENV_NAME_PATTERN.test(name)) {
    throw new UsageError(
      '--bearer-env',
      'takes the name of the environment variable holding the token (letters, digits and "_", e.g. ' +
        '--bearer-env MCP_TOKEN), never the token itself',
    );
  }
  if (Object.keys(headers).some((key) => key.toLowerCase() === 'authorization')) {
    throw new UsageError('--bearer-env', 'and --header Authorization=… both authenticate one server: give one of them');
  }
  return { kind: 'bearer', token: { kind: 'secret_ref', env: name } };
}

interface OpenGroup {
  transport: 'http' | 'stdio';
  fields: Map<string, string[]>;
}

function closeGroup(group: OpenGroup, index: number): ServerSelection {
  const one = (field: string): string | undefined => group.fields.get(field)?.[0];
  const name = one('name') ?? (index === 0 ? 'server' : `server-${index + 1}`);
  if (!NAME_PATTERN.test(name)) {
    throw new UsageError('--name', 'must start with a letter or digit and use only letters, digits, ".", "_" or "-"');
  }
  if (group.transport === 'http') {
    const url = one('url');
    if (url === undefined) throw new UsageError('--server http', 'needs --url URL');
    const headers: Record<string, string> = {};
    for (const raw of group.fields.get('header') ?? []) {
      const [key, value] = parsePair('header', raw);
      headers[key] = value;
    }
    const trust = one('trust');
    if (trust !== undefined && trust !== 'default' && trust !== 'trusted_private') {
      throw new UsageError('--trust', `must be "default" or "trusted_private", not "${trust}"`);
    }
    const selection: ServerSelection = { transport: 'http', name, url: validateUrl(url), headers };
    const auth = bearerFromEnv(one('bearer-env'), headers);
    return { ...selection, ...(trust !== undefined && { trust }), ...(auth !== undefined && { auth }) };
  }
  const command = one('command');
  if (command === undefined || command.trim() === '') throw new UsageError('--server stdio', 'needs --command CMD');
  const args = group.fields.get('arg') ?? [];
  const env: Record<string, string> = {};
  for (const raw of group.fields.get('env') ?? []) {
    const [key, value] = parsePair('env', raw);
    env[key] = value;
  }
  return { transport: 'stdio', name, command, args: [...args], env };
}

/** Groups server tokens into selections; throws `UsageError` naming the misplaced or bad flag. */
export function buildServerGroups(tokens: readonly ServerToken[]): ServerSelection[] {
  const groups: OpenGroup[] = [];
  for (const token of tokens) {
    if (token.flag === 'server') {
      if (token.value !== 'http' && token.value !== 'stdio') {
        throw new UsageError('--server', `must be "http" or "stdio", not "${token.value}"`);
      }
      groups.push({ transport: token.value, fields: new Map() });
      continue;
    }
    const group = groups[groups.length - 1];
    if (!group) throw new UsageError(`--${token.flag}`, 'must follow --server http or --server stdio');
    const allowed = group.transport === 'http' ? HTTP_FIELDS : STDIO_FIELDS;
    if (!allowed.has(token.flag)) {
      throw new UsageError(`--${token.flag}`, `does not apply to --server ${group.transport}`);
    }
    const values = group.fields.get(token.flag) ?? [];
    if (SINGLE_FIELDS.has(token.flag) && values.length > 0) {
      throw new UsageError(`--${token.flag}`, `is given twice in one --server ${group.transport} group`);
    }
    if (token.flag === 'arg' && token.value === '') throw new UsageError('--arg', 'must not be empty');
    values.push(token.value);
    group.fields.set(token.flag, values);
  }
  const selections = groups.map(closeGroup);
  const names = new Set<string>();
  for (const selection of selections) {
    if (names.has(selection.name)) {
      throw new UsageError('--server', `two server groups are named "${selection.name}"; give each a distinct --name`);
    }
    names.add(selection.name);
  }
  return selections;
}

/**
 * Every value a server group carries that must never be printed: header and env values, and the
 * credentials in stdio arguments (`--arg --token=…`, `--arg --api-key --arg …`).
 */
export function serverSecrets(selections: readonly ServerSelection[]): string[] {
  return selections.flatMap((s) =>
    s.transport === 'http' ? Object.values(s.headers) : [...Object.values(s.env), ...commandLineCanaries(s.args)],
  );
}
