// The example server over each transport the kit supports, for tests that run one scenario three
// ways: the compiled binary over stdio, the same binary with `--http 0` over Streamable HTTP, and
// the server factory linked in process.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createExampleServer, exampleServerBin } from '@sf-m3/example-servers';
import { HTTPServer } from '../servers/HTTPServer';
import { InProcessServer } from '../servers/InProcessServer';
import type { ServerDefinition } from '../servers/ServerDefinition';
import { StdioServer } from '../servers/StdioServer';

const repoRoot = join(__dirname, '..', '..', '..', '..');

/** Builds the example server binaries when `dist` is missing (a fresh clone before `npm run build`). */
export function ensureExampleServerBuilt(): void {
  if (!existsSync(exampleServerBin)) {
    execFileSync('npx', ['tsc', '-b', 'examples/servers'], { cwd: repoRoot, stdio: 'inherit' });
  }
}

/**
 * Spawns the compiled example server with `--http 0` and resolves the URL it prints, however long a
 * loaded machine takes to start it (the calling hook's timeout is the only limit); rejects when it
 * exits first.
 */
export function spawnExampleHttp(): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [exampleServerBin, '--http', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      const match = /^listening on (http:\/\/127\.0\.0\.1:\d+\/mcp)$/m.exec(out);
      if (match) resolve({ child, url: match[1]! });
    });
    child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
    child.once('exit', (code) => reject(new Error(`example server exited early with ${String(code)}: ${err}`)));
  });
}

/**
 * Starts the example server over Streamable HTTP once for the calling file (`beforeAll`, built
 * first if needed) and stops it after (`afterAll`); returns a getter of its URL.
 */
export function useExampleHttpServer(): () => string {
  let child: ChildProcess | undefined;
  let url = '';
  beforeAll(async () => {
    ensureExampleServerBuilt();
    ({ child, url } = await spawnExampleHttp());
  }, 120_000);
  afterAll(() => {
    child?.kill('SIGTERM');
  });
  return () => url;
}

/** The transport kinds, as the store labels them. */
export type ExampleTransport = 'stdio' | 'http' | 'in_process';

/**
 * `[transport, makeServer]` rows for `describe.each`. `httpUrl()` is read when a test makes its
 * server, so a `beforeAll` may start the HTTP server first.
 */
export function exampleServerRows(
  name: string,
  httpUrl: () => string,
): Array<[ExampleTransport, () => ServerDefinition]> {
  return [
    ['stdio', () => new StdioServer({ name, command: process.execPath, args: [exampleServerBin] })],
    ['http', () => new HTTPServer({ name, url: httpUrl() })],
    ['in_process', () => new InProcessServer({ name, factory: createExampleServer })],
  ];
}
