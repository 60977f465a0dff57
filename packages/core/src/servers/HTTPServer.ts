import { validateProtocolSetting, type ProtocolSetting } from './protocolSetting';
import { describeHttpAuth, validateHttpAuth, type HttpAuth } from '../auth/HttpAuth';
import { TrustLevel } from '../enums';
import { ModelValidationError } from '../errors';
import type { JsonObject } from '../json';
import { isSensitiveName } from '../redaction/Redactor';
import { safeUrl } from './endpointTrust';
import {
  describeConfiguredValues,
  validateConfiguredValues,
  validateServerName,
  type ConfiguredValue,
  type ServerDescription,
} from './ServerDefinition';

/** Options of an `HTTPServer`. */
export interface HTTPServerOptions {
  /** Binding name used in traces and assertions. */
  name: string;
  /** The Streamable HTTP endpoint, e.g. `http://127.0.0.1:3000/mcp`. */
  url: string | URL;
  /** Sent with every request; values may be `secretFromEnv(...)`, resolved at connect time. */
  headers?: Record<string, ConfiguredValue>;
  /** `'trusted_private'` allows private-range and link-local hosts (default: `'default'`). */
  trust?: TrustLevel;
  /** How to authenticate: a bearer token, the OAuth flow, or any SDK `OAuthClientProvider` (contract §17). */
  auth?: HttpAuth;
  /** How the connection picks its protocol era: `'auto'` (default), `'legacy'` or a revision to pin (contract §23). */
  protocol?: ProtocolSetting;
}

const TRUST_LEVELS: ReadonlySet<string> = new Set(Object.values(TrustLevel));

/**
 * A deployed MCP server reached over Streamable HTTP. The kit owns the connection, never the
 * server. Constructing one does no I/O; the trust rules (contract §2) are applied when connecting.
 */
export class HTTPServer {
  readonly kind = 'http' as const;
  readonly name: string;
  readonly url: string;
  readonly headers: Readonly<Record<string, ConfiguredValue>>;
  readonly trust: TrustLevel;
  readonly auth: HttpAuth | undefined;
  /** How connections pick their protocol era (contract §23); `kit.direct(server, { protocol })` overrides it. */
  readonly protocol: ProtocolSetting;

  constructor(options: HTTPServerOptions) {
    if (typeof options !== 'object' || options === null) {
      throw new ModelValidationError(
        'HTTPServer needs options: new HTTPServer({ name, url, headers?, trust?, auth? })',
      );
    }
    this.name = validateServerName(options.name, 'HTTPServer');
    const url = options.url instanceof URL ? options.url.href : options.url;
    if (typeof url !== 'string' || url.trim() === '') {
      throw new ModelValidationError(`HTTPServer ${this.name} needs a url, e.g. url: 'http://127.0.0.1:3000/mcp'`);
    }
    this.url = url.trim();
    this.headers = validateConfiguredValues(options.headers, 'headers', `HTTPServer ${this.name}`);
    const trust = options.trust ?? TrustLevel.DEFAULT;
    if (!TRUST_LEVELS.has(trust)) {
      throw new ModelValidationError(
        `HTTPServer ${this.name} trust must be one of ${[...TRUST_LEVELS].join(', ')}, got ${JSON.stringify(trust)}`,
      );
    }
    this.trust = trust;
    this.auth = validateHttpAuth(options.auth, `HTTPServer ${this.name}`);
    this.protocol = validateProtocolSetting(options.protocol, `HTTPServer ${this.name}`) ?? 'auto';
    if (this.auth !== undefined && Object.keys(this.headers).some((key) => key.toLowerCase() === 'authorization')) {
      throw new ModelValidationError(
        `HTTPServer ${this.name} has both auth and an Authorization header: give one of them`,
      );
    }
    Object.freeze(this);
  }

  /** Name, transport and the URL without userinfo, query or fragment. */
  describe(): ServerDescription {
    return { name: this.name, transport: 'http', target: safeTarget(this.url) };
  }

  /**
   * JSON form: the URL without query, secret references by name, sensitive header values hidden, and
   * the protocol era setting when it is not the default `'auto'` (matrix ids of unpinned servers stay).
   */
  toJSON(): JsonObject {
    return {
      kind: this.kind,
      name: this.name,
      url: safeTarget(this.url),
      headers: describeConfiguredValues(this.headers, isSensitiveName),
      trust: this.trust,
      ...(this.auth !== undefined && { auth: describeHttpAuth(this.auth) }),
      ...(this.protocol !== 'auto' && { protocol: this.protocol }),
    };
  }
}

/** The URL without userinfo, query or fragment, or `<invalid url>`. */
function safeTarget(url: string): string {
  try {
    return safeUrl(new URL(url));
  } catch {
    return '<invalid url>';
  }
}
