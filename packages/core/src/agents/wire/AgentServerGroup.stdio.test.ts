// The stdio path end to end: a real MCP client spawns the descriptor's command (the capture proxy)
// in front of the real example server, as an agent would; the group turns the capture into wire
// events that the projection pairs and correlates with the agent's own report.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { secretFromEnv } from '../../redaction/SecretRef';
import { StdioServer } from '../../servers/StdioServer';
import { isAlive } from '../../transport/processTree';
import {
  connectAsAgent,
  eventRecorded,
  exampleServerBin,
  finishedCapture,
  reportToolCall,
  setupGroup,
} from './wire.testkit';

const SECRET = 'wire-stdio-secret-7f3a9c1e';
process.env.SF_M3_WIRE_TEST_TOKEN = SECRET;

const example = () =>
  new StdioServer({
    name: 'example',
    command: process.execPath,
    args: [exampleServerBin],
    env: { EXAMPLE_API_TOKEN: secretFromEnv('SF_M3_WIRE_TEST_TOKEN') },
  });

const pidOf = (result: unknown): number => (result as { structuredContent: { pid: number } }).structuredContent.pid;

describe('AgentServerGroup over a stdio server', () => {
  test('records the wire as events the projection pairs and correlates; secrets stay out of descriptor, capture and trace', async () => {
    const { group, recorder, scope, finish } = setupGroup([example()]);
    const [descriptor] = await group.start(new AbortController().signal);
    expect(descriptor).toEqual({ name: 'example', command: process.execPath, args: expect.any(Array), env: [] });
    expect(JSON.stringify(descriptor)).not.toContain(SECRET);
    const configPath = (descriptor as { args: string[] }).args[1]!;
    expect(readFileSync(configPath, 'utf8')).toContain(SECRET);

    let client: Client | undefined;
    let serverPid: number | undefined;
    let proxyPid: number | null | undefined;
    try {
      client = await connectAsAgent(descriptor!);
      // The proxy consumed its one-shot config before starting the server.
      expect(existsSync(configPath)).toBe(false);
      expect(existsSync(dirname(configPath))).toBe(false);
      await client.listTools();
      reportToolCall(recorder, scope, 'example', 'shipping_quote', { weight_kg: 2, zone: 'local' }, 'p-1');
      const quote = await client.callTool({ name: 'shipping_quote', arguments: { weight_kg: 2, zone: 'local' } });
      expect(quote.isError).toBeFalsy();
      serverPid = pidOf(await client.callTool({ name: 'process_id', arguments: {} }));
      // The secret reached the server's environment (and nothing else).
      expect(readFileSync(`/proc/${serverPid}/environ`, 'utf8').split('\0')).toContain(`EXAMPLE_API_TOKEN=${SECRET}`);
      // The harness syncs before a turn ends: what was captured so far belongs to turn 1.
      await group.sync();
      scope.turnId = 'turn-2';
      const echoed = await client.callTool({ name: 'normalize_customer', arguments: { name: `  ${SECRET} ` } });
      // The server echoes the secret back: the proxy redacts it in the capture.
      expect(JSON.stringify(echoed.structuredContent)).toContain(SECRET);
      await group.sync();
      const [capture] = group.captures();
      expect(capture).toMatchObject({ server: 'example', serverPid });
      proxyPid = capture!.proxyPid;
      expect(proxyPid).not.toBe(serverPid);
      // Neither the proxy's nor the server's argv, nor the proxy's environment, holds the secret.
      for (const file of [`/proc/${proxyPid}/cmdline`, `/proc/${proxyPid}/environ`, `/proc/${serverPid}/cmdline`]) {
        expect(readFileSync(file, 'utf8')).not.toContain(SECRET);
      }
      expect(statSync(dirname(capture!.capturePath)).mode & 0o777).toBe(0o700);
      await client.close();
      // The finished capture file holds the echoed secret only as [REDACTED].
      const bytes = readFileSync((await finishedCapture(capture!.capturePath)).path, 'utf8');
      expect(bytes).toContain('normalize_customer');
      expect(bytes).toContain('[REDACTED]');
      expect(bytes).not.toContain(SECRET);
    } finally {
      await client?.close();
      await group.close();
    }
    expect(isAlive(serverPid!)).toBe(false);
    expect(isAlive(proxyPid!)).toBe(false);
    const trace = finish();
    expect(JSON.stringify(trace.toJSON())).not.toContain(SECRET);
    expect(trace.limitations).not.toContain('cleanup_failed');

    const wire = trace.events.filter((e) => e.origin === 'wire_observed');
    const calls = wire.filter((e) => e.kind === 'tool.call_requested');
    expect(calls.map((e) => [e.server, e.direction, e.jsonrpcId, e.turnId, e.payload.params])).toEqual([
      [
        'example',
        'client_to_server',
        expect.any(Number),
        'turn-1',
        { name: 'shipping_quote', arguments: { weight_kg: 2, zone: 'local' } },
      ],
      ['example', 'client_to_server', expect.any(Number), 'turn-1', { name: 'process_id', arguments: {} }],
      [
        'example',
        'client_to_server',
        expect.any(Number),
        'turn-2',
        expect.objectContaining({ name: 'normalize_customer' }),
      ],
    ]);
    expect(calls.every((e) => e.rawEvidence !== undefined && e.sessionId === 'session-1')).toBe(true);
    expect(wire.map((e) => e.kind)).toEqual(
      expect.arrayContaining([
        'process.started',
        'transport.connected',
        'mcp.request',
        'mcp.response',
        'mcp.notification',
        'tool.result_received',
        'process.exited',
        'transport.disconnected',
      ]),
    );
    const connections = new Set(wire.map((e) => e.connectionId));
    expect(connections.size).toBe(1);
    const started = wire.find((e) => e.kind === 'process.started')!;
    expect(started.payload).toMatchObject({ executable: 'node', pid: serverPid });

    const view = trace.view();
    const quote = view.toolCalls.find((c) => c.tool.value === 'shipping_quote')!;
    expect(quote).toMatchObject({
      server: 'example',
      status: 'success',
      correlation: 'correlated',
      providerCallId: 'p-1',
      turnId: 'turn-1',
      conflicts: [],
    });
    expect(view.toolCalls.map((c) => [c.tool.value, c.status, c.correlation])).toEqual([
      ['shipping_quote', 'success', 'correlated'],
      ['process_id', 'success', 'wire_only'],
      ['normalize_customer', 'success', 'wire_only'],
    ]);
  });

  test('records frames as the proxy appends them, without waiting for sync()', async () => {
    const { group, recorder } = setupGroup([example()]);
    const [descriptor] = await group.start(new AbortController().signal);
    const client = await connectAsAgent(descriptor!);
    try {
      await client.callTool({ name: 'shipping_quote', arguments: { weight_kg: 1, zone: 'local' } });
      await eventRecorded(recorder, (e) => e.kind === 'tool.result_received' && e.origin === 'wire_observed');
      expect(recorder.events.some((e) => e.kind === 'process.started')).toBe(true);
    } finally {
      await client.close();
      await group.close();
    }
  });
});
