import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import type { FuzzableTool } from './fuzzTool';

/** What the listing child reads from stdin. */
export interface ListingRequest {
  readonly server: { readonly kind: 'stdio' | 'http' } & Record<string, unknown>;
  readonly timeoutMs: number;
}

/** The tools of a server, or why they could not be listed (a sentence naming the fix). */
export type CollectedToolListing = { readonly tools: readonly FuzzableTool[] } | { readonly error: string };

/** How long collection waits for a listing before it gives up. */
export const LISTING_TIMEOUT_MS = 30_000;

/**
 * What the listing child is sent for a server: plain JSON, where a `secretFromEnv` value stays a
 * reference (`{ kind: 'secret_ref', env: NAME }`), never its value. In-process servers and servers
 * with HTTP `auth` cannot cross a process boundary: they get an error telling the user to pass `tools`.
 */
export function listingRequest(server: unknown, timeoutMs: number): ListingRequest | { readonly error: string } {
  const definition = server as { kind?: unknown; name?: unknown; auth?: unknown } & Record<string, unknown>;
  const name = String(definition.name);
  if (definition.kind !== 'stdio' && definition.kind !== 'http') {
    return {
      error:
        `describe.m3.fuzz cannot list the tools of ${definition.kind === 'in_process' ? 'in-process ' : ''}server ${name} ` +
        "while Jest collects tests: pass the tool names, describe.m3.fuzz(server, { tools: ['add', ...] })",
    };
  }
  if (definition.auth !== undefined) {
    return {
      error: `describe.m3.fuzz cannot list the tools of server ${name} (it uses HTTP auth) while Jest collects tests: pass { tools: [...] }`,
    };
  }
  const fields =
    definition.kind === 'stdio'
      ? {
          kind: 'stdio',
          name,
          command: definition.command,
          args: definition.args,
          env: definition.env,
          cwd: definition.cwd,
          protocol: definition.protocol,
        }
      : {
          kind: 'http',
          name,
          url: definition.url,
          headers: definition.headers,
          trust: definition.trust,
          protocol: definition.protocol,
        };
  return { server: fields as ListingRequest['server'], timeoutMs };
}

/**
 * Lists a stdio or HTTP server's tools synchronously, for `describe.m3.fuzz`: Jest registers tests
 * synchronously while collecting a file, so the listing runs in a child Node process
 * (`spawnSync`) that connects, lists and exits. The definition crosses as JSON on stdin, secrets
 * as `secretFromEnv` names the child resolves from the same environment: no secret value is
 * written anywhere. In-process servers and servers with HTTP `auth` cannot cross a process
 * boundary: they get an error telling the user to pass `tools`.
 */
export function listToolsSync(server: unknown, timeoutMs: number = LISTING_TIMEOUT_MS): CollectedToolListing {
  const request = listingRequest(server, timeoutMs);
  if ('error' in request) return request;
  const name = request.server.name as string;
  const child = spawnSync(process.execPath, [childScript()], {
    input: JSON.stringify(request),
    // This realm's environment, explicitly: under Jest it is the test file's own `process.env`,
    // which is where `secretFromEnv` values are resolved for a connection too.
    env: process.env,
    encoding: 'utf8',
    timeout: timeoutMs + 5_000,
    killSignal: 'SIGKILL',
  });
  const line = child.stdout?.trim().split('\n').at(-1) ?? '';
  try {
    const answer = JSON.parse(line) as CollectedToolListing;
    if ('error' in answer)
      return { error: `describe.m3.fuzz could not list the tools of server ${name}: ${answer.error}` };
    return answer;
  } catch {
    const why =
      child.error !== undefined
        ? child.error.message
        : `the listing process ended with ${child.status ?? child.signal}`;
    return {
      error: `describe.m3.fuzz could not list the tools of server ${name}: ${why}; pass { tools: [...] } to skip listing`,
    };
  }
}

/** The compiled child script (beside this file in `dist`; from `src`, as under ts-jest, its `dist` twin). */
function childScript(): string {
  const beside = path.join(__dirname, 'listToolsChild.js');
  if (existsSync(beside)) return beside;
  return path.join(__dirname.replace(/([\\/])src([\\/])(?!.*[\\/]src[\\/])/, '$1dist$2'), 'listToolsChild.js');
}
