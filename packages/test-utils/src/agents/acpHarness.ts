// Helpers for tests of the acp harness against the real fixture agents and example server.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { exampleServerBin } from '@sf-m3/example-servers';
import type { TraceEvent } from '../../../core/src/trace/Event';
import { descendantsOf, isAlive } from '../../../core/src/transport/processTree';
import type { AgentSession } from '../../../core/src/agents/AgentSession';
import { ACP_SDK_BUNDLE } from '../../../core/src/agents/acp/acpSdk';

export { agentManifests } from '../../../../examples/fixtures/acp/agents';

/** The repository root. */
const root = join(__dirname, '..', '..', '..', '..');

/** Builds the example servers and the ACP SDK bundle when they are missing. */
export function ensureBuilt(): void {
  if (!existsSync(exampleServerBin)) execFileSync('npx', ['tsc', '-b', 'examples/servers'], { cwd: root });
  if (!existsSync(ACP_SDK_BUNDLE)) {
    execFileSync(process.execPath, ['packages/core/scripts/bundle-acp-sdk.js'], { cwd: root });
  }
}

/** The agent's pid: the `process.started` the harness records (WIRE's carry a `server`). */
export function agentPidOf(events: readonly TraceEvent[]): number | undefined {
  const started = events.find((e) => e.kind === 'process.started' && e.server === undefined);
  return typeof started?.payload.pid === 'number' ? started.payload.pid : undefined;
}

/** Every pid a trace names in `process.started` (agent, MCP servers behind the proxies). */
export function tracedPids(events: readonly TraceEvent[]): number[] {
  return events.flatMap((e) =>
    e.kind === 'process.started' && typeof e.payload.pid === 'number' ? [e.payload.pid] : [],
  );
}

/** The agent of an open session and everything it started so far (proxies, servers). */
export function livePidsOf(session: AgentSession): number[] {
  const { past, stop } = session.follow(() => undefined);
  stop();
  const agent = agentPidOf(past);
  return agent === undefined ? [] : [agent, ...descendantsOf(agent)];
}

/** Reads a handle's events until `until` matches; returns the agent pid and its descendants then. */
export async function pidsOnceSeen(
  events: AsyncIterable<TraceEvent>,
  until: (event: TraceEvent) => boolean,
): Promise<number[]> {
  const seen: TraceEvent[] = [];
  for await (const event of events) {
    seen.push(event);
    if (until(event)) break;
  }
  const agent = agentPidOf(seen);
  return agent === undefined ? [] : [agent, ...descendantsOf(agent)];
}

/** The pids still alive (zombies count as gone). Called right after close: cleanup must be done. */
export function alive(pids: readonly number[]): number[] {
  return pids.filter(isAlive);
}
