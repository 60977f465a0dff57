// Helpers for tests of the pi harness against the protocol fixture (fake-pi.js) and the example server.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { exampleServerBin } from '@sf-m3/example-servers';
import { PI_EXTENSION_PATH } from './piLaunch';

export { agentPidOf, alive, livePidsOf, pidsOnceSeen, tracedPids } from '@sf-m3/test-utils/agents';

const root = join(__dirname, '..', '..', '..', '..', '..');

/** The protocol fixture standing in for `pi --mode rpc`. */
export const FAKE_PI = join(__dirname, '__fixtures__', 'fake-pi.js');

/** Builds the example servers and core's dist (the fixture loads the built MCP bridge) when missing. */
export function ensureBuilt(): void {
  if (!existsSync(exampleServerBin)) execFileSync('npx', ['tsc', '-b', 'examples/servers'], { cwd: root });
  if (!existsSync(PI_EXTENSION_PATH)) execFileSync('npx', ['tsc', '-b', 'packages/core'], { cwd: root });
}
