// Helpers for the codex harness tests: the protocol fixture, the example server, a kit agent.
import { join } from 'node:path';
import { createExampleServer, exampleServerBin } from '@sf-m3/example-servers';
import type { MCPTestKit } from '../../../core/src/kit/MCPTestKit';
import { InProcessServer } from '../../../core/src/servers/InProcessServer';
import { StdioServer } from '../../../core/src/servers/StdioServer';
import type { TraceEvent } from '../../../core/src/trace/Event';
import type { TraceView } from '../../../core/src/trace/TraceView';

export { agentPidOf, alive, ensureBuilt, livePidsOf, pidsOnceSeen, tracedPids } from './acpHarness';

/** `fake-codex.js`: codex app-server's protocol from a recorded session, scripted by the prompt. */
export const FAKE_CODEX = join(__dirname, '../../../core/src/agents/codex/__fixtures__/fake-codex.js');
/** A loopback endpoint nothing listens on: the fixture has no model, the harness needs a baseUrl or key. */
export const NO_MODEL_URL = 'http://127.0.0.1:9/v1';

export const example = new StdioServer({ name: 'example', command: process.execPath, args: [exampleServerBin] });

/**
 * The example server in the test process, named `example`: no server or capture-proxy process is
 * started (its calls go through the loopback capture proxy). For cases about the CLI's own stream
 * (usage, reasoning, failed turns), where a stdio server's two processes would only cost time.
 */
export const inProcessExample = (): InProcessServer =>
  new InProcessServer({ name: 'example', factory: createExampleServer });

/** A `codex` agent of `kit` running the fixture (extra selection fields override). */
export function fakeCodexAgent(kit: MCPTestKit, extra: Record<string, unknown> = {}) {
  return kit.agents([
    { harness: 'codex', executable: FAKE_CODEX, models: ['gpt-5.6-sol'], baseUrl: NO_MODEL_URL, ...extra },
  ])[0]!;
}

/** The `provider.event` payloads of one category. */
export function providerEvents(events: readonly TraceEvent[], category: string): Record<string, unknown>[] {
  return events.filter((e) => e.kind === 'provider.event' && e.payload.category === category).map((e) => e.payload);
}

/** The harness's raw frames one way, parsed. */
export function harnessFrames(
  view: TraceView,
  direction: 'sdk_to_harness' | 'harness_to_sdk',
): Record<string, unknown>[] {
  return view.rawMessages
    .filter((m) => m.source === 'harness' && m.direction === direction)
    .map((m) => JSON.parse(String(m.preview.value)) as Record<string, unknown>);
}
