// The SDK v2 fixture server (`__fixtures__/v2-era-server.js`) as server definitions: over stdio,
// over Streamable HTTP on 127.0.0.1 and in process, serving both eras or (`reject`) only 2026-07-28.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { HTTPServer } from '../../../core/src/servers/HTTPServer';
import { InProcessServer } from '../../../core/src/servers/InProcessServer';
import type { ProtocolSetting } from '../../../core/src/servers/protocolSetting';
import { StdioServer } from '../../../core/src/servers/StdioServer';

/** The fixture script. */
export const V2_ERA_SERVER = join(__dirname, '../../../core/src/client/__fixtures__/v2-era-server.js');

const { createV2Server } = require(V2_ERA_SERVER) as {
  createV2Server: (context: { era: 'legacy' | 'modern' }) => never;
};

/** Which eras a fixture serves: both (`serve`/`stateless`) or only 2026-07-28 (`reject`). */
export type Served = 'both' | 'modern-only';

/** The fixture over stdio. */
export function v2Stdio(served: Served, protocol?: ProtocolSetting): StdioServer {
  return new StdioServer({
    name: `v2-stdio-${served}`,
    command: process.execPath,
    args: [V2_ERA_SERVER, 'stdio', ...(served === 'modern-only' ? ['--reject'] : [])],
    ...(protocol !== undefined && { protocol }),
  });
}

/** The fixture in process (both eras, routed by the SDK's own era router). */
export function v2InProcess(protocol?: ProtocolSetting): InProcessServer {
  return new InProcessServer({
    name: 'v2-in-process',
    factory: createV2Server,
    ...(protocol !== undefined && { protocol }),
  });
}

/** A running HTTP fixture. */
export interface V2HttpEndpoint {
  readonly url: string;
  /** An `HTTPServer` for it. */
  server(protocol?: ProtocolSetting): HTTPServer;
  close(): void;
}

/** Starts the fixture over Streamable HTTP on 127.0.0.1 (a random port) and resolves its URL. */
export function startV2Http(served: Served): Promise<V2HttpEndpoint> {
  const child: ChildProcess = spawn(
    process.execPath,
    [V2_ERA_SERVER, 'http', ...(served === 'modern-only' ? ['--reject'] : [])],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      const match = /^listening on (http:\/\/127\.0\.0\.1:\d+\/mcp)$/m.exec(out);
      if (match) {
        const url = match[1]!;
        resolve({
          url,
          server: (protocol) =>
            new HTTPServer({ name: `v2-http-${served}`, url, ...(protocol !== undefined && { protocol }) }),
          close: () => child.kill('SIGTERM'),
        });
      }
    });
    child.once('exit', (code) => reject(new Error(`v2 fixture server exited early with ${String(code)}`)));
  });
}
