import { chmod, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ModelValidationError } from '../errors/M3Error';
import { isSensitiveName } from '../redaction/Redactor';
import { makePrivateTempDir } from '../tempfiles/privateTempDir';
import { normalizeToolPolicy, type ProxyToolPolicy } from './toolPolicy';

/** Version of the config shape the proxy script accepts. */
export const PROXY_CONFIG_VERSION = 1;

/** Byte bounds the proxy applies after redaction. */
export interface ProxyBounds {
  /** Bytes of a frame shown as a preview by `CaptureFile` (64 KiB). */
  readonly previewBytes: number;
  /** Bytes of one frame kept in the capture file (1 MiB). */
  readonly frameBytes: number;
  /** Bytes of the server's stderr kept for the exit record (16 KiB). */
  readonly stderrTailBytes: number;
  /**
   * Bytes frame records may take of the capture file (64 MiB, a trace's evidence budget). Past it
   * notifications and non-JSON lines are only counted and requests, responses and errors keep only
   * their summaries, within a further 1/16 of it (contract §5, §22; `proxy/captureBudget.js`).
   */
  readonly captureBytes: number;
}

/** The bounds of contract §5 plus the stderr tail. */
export const DEFAULT_PROXY_BOUNDS: ProxyBounds = Object.freeze({
  previewBytes: 64 * 1024,
  frameBytes: 1024 * 1024,
  stderrTailBytes: 16 * 1024,
  captureBytes: 64 * 1024 * 1024,
});

/** What the proxy script reads from its one-shot config file. */
export interface ProxyConfig {
  readonly version: typeof PROXY_CONFIG_VERSION;
  readonly server: {
    /** Server alias used in records and `server:tool` policy names. */
    readonly name: string;
    readonly command: string;
    readonly args: string[];
    /** Values set for the server (resolved secrets included; they never reach argv). */
    readonly env: Record<string, string>;
    /** When true (default) `env` is laid over the proxy's own environment; false uses `env` alone. */
    readonly inheritEnv: boolean;
    readonly cwd?: string;
  };
  /** Append-only JSON-lines capture file (created 0600 when missing). */
  readonly capturePath: string;
  /** Secret values replaced with `[REDACTED]` in every record. */
  readonly canaries: string[];
  readonly bounds: ProxyBounds;
  readonly toolPolicy: ProxyToolPolicy;
  /** After the client closes stdin, how long the server may keep running before SIGTERM (0: wait forever). */
  readonly eofGraceMs: number;
  /**
   * Replaying the server's side from a cassette (contract §24): the server is not started; each
   * client request is answered by the kit's loopback endpoint at `url` (`Authorization: Bearer
   * <token>`).
   */
  readonly replay?: ProxyReplayEndpoint;
}

/** Where the proxy asks for replayed answers: a loopback URL and the bearer token it must send. */
export interface ProxyReplayEndpoint {
  readonly url: string;
  readonly token: string;
}

/** Default time a server may outlive its stdin before the proxy stops its process group. */
export const DEFAULT_EOF_GRACE_MS = 5000;

/** Options of `createProxyConfig`. */
export interface CreateProxyConfigOptions {
  serverName: string;
  command: string;
  args?: readonly string[];
  env?: Readonly<Record<string, string>>;
  inheritEnv?: boolean;
  cwd?: string;
  capturePath: string;
  /** Secret values to redact; values of `env` keys that look secret are added automatically. */
  canaries?: Iterable<string>;
  /** The test's `tools` option (`undefined` allows all, `[]` denies all, `server:tool` names). */
  tools?: readonly string[];
  /**
   * This server's policy already normalized (e.g. from `resolveRunOptions`); used instead of
   * `tools`/`knownServers` when given.
   */
  toolPolicy?: ProxyToolPolicy;
  /** All server names of the test, to catch policy entries naming a missing server. */
  knownServers?: readonly string[];
  bounds?: Partial<ProxyBounds>;
  /** See `ProxyConfig.eofGraceMs` (default 5 s). */
  eofGraceMs?: number;
  /** See `ProxyConfig.replay`. */
  replay?: ProxyReplayEndpoint;
}

/** Builds a validated proxy config, normalizing the tool policy for this one server. */
export function createProxyConfig(options: CreateProxyConfigOptions): ProxyConfig {
  if (!options.serverName || options.serverName.includes(':')) {
    throw new ModelValidationError('the proxied server needs a name without ":" (it is used in server:tool names)');
  }
  if (!options.command) throw new ModelValidationError('the proxied server needs a command: set its command');
  if (!options.capturePath) throw new ModelValidationError('the capture proxy needs a capturePath to append to');
  const env: Record<string, string> = { ...(options.env ?? {}) };
  const canaries = new Set<string>();
  for (const c of options.canaries ?? []) if (typeof c === 'string' && c.length >= 4) canaries.add(c);
  for (const [key, value] of Object.entries(env)) if (isSensitiveName(key) && value.length >= 4) canaries.add(value);
  const bounds = { ...DEFAULT_PROXY_BOUNDS, ...(options.bounds ?? {}) };
  for (const [key, value] of Object.entries(bounds)) {
    if (!Number.isInteger(value) || value <= 0) {
      throw new ModelValidationError(`proxy bound ${key} must be a positive integer number of bytes`, { key });
    }
  }
  const eofGraceMs = options.eofGraceMs ?? DEFAULT_EOF_GRACE_MS;
  if (!Number.isInteger(eofGraceMs) || eofGraceMs < 0) {
    throw new ModelValidationError('eofGraceMs must be a whole number of milliseconds (0 waits forever)');
  }
  return {
    version: PROXY_CONFIG_VERSION,
    server: {
      name: options.serverName,
      command: options.command,
      args: [...(options.args ?? [])],
      env,
      inheritEnv: options.inheritEnv ?? true,
      ...(options.cwd !== undefined ? { cwd: options.cwd } : {}),
    },
    capturePath: options.capturePath,
    canaries: [...canaries],
    bounds,
    toolPolicy:
      options.toolPolicy !== undefined
        ? copyToolPolicy(options.toolPolicy)
        : normalizeToolPolicy(options.serverName, options.tools, options.knownServers),
    eofGraceMs,
    ...(options.replay !== undefined && { replay: { url: options.replay.url, token: options.replay.token } }),
  };
}

function copyToolPolicy(policy: ProxyToolPolicy): ProxyToolPolicy {
  if (policy.mode === 'allow_all') return { mode: 'allow_all' };
  if (policy.mode !== 'allowlist' || !Array.isArray(policy.tools) || policy.tools.some((t) => typeof t !== 'string')) {
    throw new ModelValidationError("toolPolicy must be { mode: 'allow_all' } or { mode: 'allowlist', tools: [...] }");
  }
  return { mode: 'allowlist', tools: [...policy.tools].sort() };
}

/**
 * Writes the config to a fresh private temp directory (under `M3_TEMP_DIR` when set) as a 0600 file created exclusively, and
 * returns its path. The proxy reads it once and deletes it (and the directory) at start.
 */
export async function writeProxyConfig(config: ProxyConfig): Promise<string> {
  const dir = await makePrivateTempDir('sf-m3-proxy-');
  const file = join(dir, 'config.json');
  await writeFile(file, JSON.stringify(config), { mode: 0o600, flag: 'wx' });
  await chmod(file, 0o600);
  return file;
}
