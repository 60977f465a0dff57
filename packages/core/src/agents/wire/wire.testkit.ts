// Test helpers for the agent capture layer: an execution recorder, a group over real servers, and
// a real MCP client that uses a descriptor the way an agent would.
import { watch } from 'node:fs';
import { dirname, join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { ServerCassettes } from '../../cassettes/servers/ServerCassettes';
import { createLogger } from '../../logging/logger';
import { CaptureFile } from '../../proxy/CaptureFile';
import { normalizeToolPolicy } from '../../proxy/toolPolicy';
import { Redactor } from '../../redaction/Redactor';
import type { ServerDefinition } from '../../servers/ServerDefinition';
import { TraceRecorder } from '../../trace/TraceRecorder';
import type { TraceEvent } from '../../trace/Event';
import type { TraceResult } from '../../trace/TraceResult';
import { AgentServerGroup, type AgentMcpServerDescriptor } from './AgentServerGroup';

const ROOT = join(__dirname, '..', '..', '..', '..', '..');
/** The compiled example server (stdio by default, `--http <port>`); exists after `tsc -b`. */
export const exampleServerBin = join(ROOT, 'examples', 'servers', 'dist', 'bin', 'example-server.js');

/** A group over `servers` with a fresh recorder of an `acp` execution and a settable scope. */
export interface GroupSetup {
  readonly group: AgentServerGroup;
  readonly recorder: TraceRecorder;
  readonly redactor: Redactor;
  /** The scope the group tags events with; tests change it between turns. */
  readonly scope: { sessionId?: string; turnId?: string };
  /** Finishes the trace (after `group.close()`). */
  finish(): TraceResult;
}

/**
 * Builds a group with the tool policy of a test's `tools` option (omitted allows all); with
 * `cassettes` (made from the group's redactor), the servers' side goes on the cassette.
 */
export function setupGroup(
  servers: ServerDefinition[],
  tools?: string[],
  canaries: string[] = [],
  cassettes?: (redactor: Redactor) => ServerCassettes,
): GroupSetup {
  const redactor = new Redactor(canaries);
  const recorder = new TraceRecorder({ executionId: 'exec-0123456789abcdef0123456789abcdef', redactor });
  recorder.record('execution.created', {
    payload: { runtime: 'acp', servers: servers.map((s) => s.describe()) },
  });
  const names = servers.map((s) => s.name);
  const policies = new Map(servers.map((s) => [s.name, normalizeToolPolicy(s.name, tools, names)]));
  const scope: { sessionId?: string; turnId?: string } = { sessionId: 'session-1', turnId: 'turn-1' };
  const group = new AgentServerGroup({
    servers,
    policies,
    recorder,
    redactor,
    logger: createLogger(redactor),
    scope: () => ({ ...scope }),
    ...(cassettes !== undefined && { cassettes: cassettes(redactor) }),
  });
  return { group, recorder, redactor, scope, finish: () => recorder.finish('completed') };
}

/** An SDK client connected through a descriptor, as an agent would connect. */
export async function connectAsAgent(descriptor: AgentMcpServerDescriptor): Promise<Client> {
  const client = new Client({ name: 'wire-test-agent', version: '1.0.0' });
  if ('command' in descriptor) {
    const env = Object.fromEntries(descriptor.env.map((e) => [e.name, e.value]));
    await client.connect(
      new StdioClientTransport({ command: descriptor.command, args: descriptor.args, env, stderr: 'ignore' }),
    );
  } else {
    const headers = Object.fromEntries(descriptor.headers.map((h) => [h.name, h.value]));
    await client.connect(new StreamableHTTPClientTransport(new URL(descriptor.url), { requestInit: { headers } }));
  }
  return client;
}

/** Records an agent's own report of a tool call (what an ACP `tool_call` update becomes). */
export function reportToolCall(
  recorder: TraceRecorder,
  scope: { sessionId?: string; turnId?: string },
  server: string,
  name: string,
  args: Record<string, unknown>,
  providerCallId: string,
): void {
  recorder.record('tool.call_requested', {
    origin: 'harness_reported',
    server,
    ...scope,
    payload: { method: 'tools/call', params: { name, arguments: args }, providerCallId },
  });
}

/**
 * Reads a capture file once the proxy has finished it (its `end` record is there): for tests
 * that check the whole capture, including the exit and end records written at shutdown. Reads it
 * again on each change to its folder (no polling).
 */
export async function finishedCapture(path: string): Promise<CaptureFile> {
  let changed: () => void = () => undefined;
  const watcher = watch(dirname(path), () => changed());
  try {
    for (;;) {
      const next = new Promise<void>((resolve) => (changed = resolve));
      const capture = await CaptureFile.readAll(path);
      if (capture.end !== undefined) return capture;
      await next;
    }
  } finally {
    watcher.close();
  }
}

/** Resolves with the first event of `recorder` (already recorded or still to come) that matches. */
export function eventRecorded(recorder: TraceRecorder, matches: (event: TraceEvent) => boolean): Promise<TraceEvent> {
  const seen = recorder.events.find(matches);
  if (seen !== undefined) return Promise.resolve(seen);
  return new Promise((resolve) => {
    const stop = recorder.subscribe((event) => {
      if (!matches(event)) return;
      stop();
      resolve(event);
    });
  });
}

/** Which era an agent's MCP client speaks: 2026-07-28 only (pinned) or the 2025 handshake only. */
export type AgentEra = 'modern' | 'legacy';

/**
 * An SDK v2 client (`@modelcontextprotocol/client`) connected through a descriptor as an agent
 * would, pinned to 2026-07-28 (`modern`) or speaking only the 2025 handshake (`legacy`); it answers
 * elicitations (and so `input_required` elicitation rounds) with `{ confirm: true }`.
 */
export async function connectAsV2Agent(
  descriptor: AgentMcpServerDescriptor,
  era: AgentEra,
): Promise<import('@modelcontextprotocol/client').Client> {
  const v2 = require('@modelcontextprotocol/client') as typeof import('@modelcontextprotocol/client');
  const client = new v2.Client(
    { name: 'wire-test-v2-agent', version: '1.0.0' },
    {
      capabilities: { elicitation: { form: {} } },
      versionNegotiation: { mode: era === 'modern' ? { pin: '2026-07-28' } : 'legacy' },
    },
  );
  client.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: { confirm: true } }));
  if ('command' in descriptor) {
    const { StdioClientTransport: V2Stdio } =
      require('@modelcontextprotocol/client/stdio') as typeof import('@modelcontextprotocol/client/stdio');
    // The SDK probes on a sibling process only for its own class exactly; a subclass probes in
    // place (the capture proxy's config is one-shot, so a second spawn of it cannot start).
    class InPlaceStdio extends V2Stdio {}
    const env = Object.fromEntries(descriptor.env.map((e) => [e.name, e.value]));
    await client.connect(
      new InPlaceStdio({ command: descriptor.command, args: descriptor.args, env, stderr: 'ignore' }),
    );
  } else {
    const headers = Object.fromEntries(descriptor.headers.map((h) => [h.name, h.value]));
    await client.connect(new v2.StreamableHTTPClientTransport(new URL(descriptor.url), { requestInit: { headers } }));
  }
  return client;
}
