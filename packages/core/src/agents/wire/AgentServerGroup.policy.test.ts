// Tool policies enforced at the wire for stdio servers: a real client calls through the capture
// proxy; denied calls are answered with -32001 by the proxy and never reach the example server.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { CaptureFile } from '../../proxy/CaptureFile';
import { StdioServer } from '../../servers/StdioServer';
import { isAlive } from '../../transport/processTree';
import { connectAsAgent, exampleServerBin, finishedCapture, setupGroup } from './wire.testkit';

const example = () => new StdioServer({ name: 'example', command: process.execPath, args: [exampleServerBin] });

/** Calls both tools through a stdio proxy under `tools`; returns outcomes, capture, view and pids. */
async function callBoth(tools: string[] | undefined) {
  const { group, finish } = setupGroup([example()], tools);
  const [descriptor] = await group.start(new AbortController().signal);
  let client: Client | undefined;
  const outcomes: Record<string, string> = {};
  let capturePath: string | undefined;
  try {
    client = await connectAsAgent(descriptor!);
    capturePath = group.captures()[0]!.capturePath;
    const listed = await client.listTools();
    expect(listed.tools.map((t) => t.name)).toEqual(expect.arrayContaining(['shipping_quote', 'process_id']));
    for (const name of ['shipping_quote', 'process_id']) {
      const args = name === 'shipping_quote' ? { weight_kg: 2, zone: 'local' } : {};
      outcomes[name] = await client.callTool({ name, arguments: args }).then(
        (r) => (r.isError === true ? 'tool_error' : 'ok'),
        (e: Error) => e.message,
      );
    }
  } catch (error) {
    await client?.close();
    await group.close();
    throw error;
  }
  await client.close();
  const capture = await finishedCapture(capturePath!).finally(() => group.close());
  const pids = [capture.start!.pid!, capture.start!.proxyPid];
  return { outcomes, capture, view: finish().view(), pids };
}

/** Tools whose calls the server itself answered (frames from the server, not the proxy). */
function answeredByServer(capture: CaptureFile): string[] {
  const calls = new Map<string, string>();
  for (const f of capture.frames) {
    for (const m of f.messages ?? []) {
      if (f.direction === 'client_to_server' && m.method === 'tools/call') calls.set(JSON.stringify(m.id), m.tool!);
    }
  }
  return capture.frames
    .filter((f) => f.direction === 'server_to_client' && f.origin === 'server')
    .flatMap((f) => f.messages ?? [])
    .flatMap((m) => (calls.has(JSON.stringify(m.id)) ? [calls.get(JSON.stringify(m.id))!] : []));
}

const DENIED = (tool: string, reason: string) =>
  `MCP error -32001: MCP tool call 'example:${tool}' was denied by this test's tool policy (${reason})`;

describe('tool policy at the wire (stdio)', () => {
  test('omitted tools: every call goes through', async () => {
    const { outcomes, capture, view, pids } = await callBoth(undefined);
    expect(outcomes).toEqual({ shipping_quote: 'ok', process_id: 'ok' });
    expect(answeredByServer(capture)).toEqual(['shipping_quote', 'process_id']);
    expect(view.toolCalls.map((c) => [c.tool.value, c.status, c.policy?.decision])).toEqual([
      ['shipping_quote', 'success', 'allowed'],
      ['process_id', 'success', 'allowed'],
    ]);
    expect(pids.filter(isAlive)).toEqual([]);
  });

  test("['example:shipping_quote']: only that tool; the other is answered by the proxy", async () => {
    const { outcomes, capture, view, pids } = await callBoth(['example:shipping_quote']);
    expect(outcomes).toEqual({
      shipping_quote: 'ok',
      process_id: DENIED('process_id', 'not in the allowlist'),
    });
    expect(answeredByServer(capture)).toEqual(['shipping_quote']);
    const [quote, pid] = view.toolCalls;
    expect(quote).toMatchObject({ status: 'success', policy: { decision: 'allowed' } });
    expect(pid).toMatchObject({
      tool: { value: 'process_id' },
      status: 'protocol_error',
      policy: { decision: 'denied', reason: 'not in the allowlist' },
      error: { state: 'observed', value: { code: -32001 } },
    });
    expect(pids.filter(isAlive)).toEqual([]);
  });

  test('tools: [] denies every call before it reaches the server', async () => {
    const { outcomes, capture, view, pids } = await callBoth([]);
    expect(outcomes).toEqual({
      shipping_quote: DENIED('shipping_quote', 'every tool is denied'),
      process_id: DENIED('process_id', 'every tool is denied'),
    });
    expect(answeredByServer(capture)).toEqual([]);
    expect(view.toolCalls.map((c) => [c.status, c.policy])).toEqual([
      ['protocol_error', { decision: 'denied', reason: 'every tool is denied' }],
      ['protocol_error', { decision: 'denied', reason: 'every tool is denied' }],
    ]);
    // tools/list is not filtered.
    expect(view.protocol.some((p) => p.method.value === 'tools/list')).toBe(true);
    expect(pids.filter(isAlive)).toEqual([]);
  });
});
