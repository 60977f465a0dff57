import { ModelValidationError } from '../errors/M3Error';

/** `env` reads a key from `apiKeyEnv`; `none` (loopback only) sends no Authorization header. */
export type ChatEndpointAuth = 'env' | 'none';

/** What a Chat Completions endpoint option set gives (the judge's and the openai harness's). */
export interface ChatEndpointOptions {
  readonly baseUrl?: string;
  readonly apiKeyEnv?: string;
  readonly auth?: ChatEndpointAuth;
}

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;

/** True for `localhost`, `127.0.0.0/8` and `::1`. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);
}

/**
 * Checks a Chat Completions base URL: absolute http(s), no credentials/query/fragment, plain http only
 * for loopback hosts. `subject` names the option's owner in messages (`LLMJudge`, `agent`).
 */
export function parseChatEndpointUrl(subject: string, raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ModelValidationError(`${subject} baseUrl must be an absolute http(s) URL such as https://host/v1`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new ModelValidationError(`${subject} baseUrl must use http or https`, { protocol: url.protocol });
  }
  if (url.username || url.password || url.search || url.hash) {
    throw new ModelValidationError(
      `${subject} baseUrl must not carry credentials, a query or a fragment: put the key in the variable named by apiKeyEnv`,
      { host: url.host },
    );
  }
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    throw new ModelValidationError(`${subject} baseUrl may use plain http only for loopback hosts; use https`, {
      host: url.host,
    });
  }
  return url;
}

/**
 * Checks the credential rules for an endpoint already parsed by `parseChatEndpointUrl`: `auth: 'none'`
 * only for a custom loopback URL and without `apiKeyEnv`; a custom URL with `auth: 'env'` must name its
 * key variable; the variable defaults to `defaultApiKeyEnv` and must be a valid name.
 */
export function resolveChatEndpointCredential(
  subject: string,
  url: URL,
  custom: boolean,
  options: ChatEndpointOptions,
  defaultApiKeyEnv: string,
): { auth: ChatEndpointAuth; apiKeyEnv: string | null } {
  const auth = options.auth ?? 'env';
  if (auth === 'none') {
    if (!custom || !isLoopbackHost(url.hostname)) {
      throw new ModelValidationError(
        `${subject} auth: 'none' is allowed only for loopback endpoints (localhost, 127.0.0.1, ::1); use apiKeyEnv for other hosts`,
        { host: url.host },
      );
    }
    if (options.apiKeyEnv !== undefined) {
      throw new ModelValidationError(`${subject} auth: 'none' reads no key: remove apiKeyEnv or use auth: 'env'`);
    }
  } else if (custom && options.apiKeyEnv === undefined) {
    throw new ModelValidationError(
      `a custom ${subject} baseUrl must declare its credential: apiKeyEnv: '<ENV VAR NAME>' or, for a loopback endpoint, auth: 'none'`,
      { host: url.host },
    );
  }
  const apiKeyEnv = auth === 'none' ? null : (options.apiKeyEnv ?? defaultApiKeyEnv);
  if (apiKeyEnv !== null && !ENV_NAME.test(apiKeyEnv)) {
    throw new ModelValidationError(
      `${subject} apiKeyEnv must be an environment variable name such as ${defaultApiKeyEnv}`,
    );
  }
  return { auth, apiKeyEnv };
}

/**
 * The `fetch` handed to the OpenAI client: never follows redirects (a key must not travel to another
 * host) and, for `anonymous` (auth `'none'`), sends no Authorization header at all. `through` is the
 * `fetch` the requests go out by (a cassette channel's, contract §24; default the global one).
 */
export function chatEndpointFetch(
  anonymous: boolean,
  through: typeof fetch = fetch,
): (input: string | URL | Request, init?: RequestInit) => Promise<Response> {
  return (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const headers = new Headers(init?.headers);
    if (anonymous) headers.delete('authorization');
    return through(input, { ...init, headers, redirect: 'manual' });
  };
}
