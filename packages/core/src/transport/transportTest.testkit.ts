/**
 * Setup shared by the transport tests: a recorder that has recorded `execution.created`, the
 * connection id they use, and one MCP exchange with `@modelcontextprotocol/server-everything`.
 * Excluded from the build.
 */
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { Redactor } from '../redaction/Redactor';
import { TraceRecorder } from '../trace/TraceRecorder';
import { ObservedTransport } from './ObservedTransport';

/** The connection id the transport tests record under. */
export const CONNECTION = 'conn-0123456789abcdef0123456789abcdef';

/** Entry point of `@modelcontextprotocol/server-everything` (args: `stdio` or `streamableHttp`). */
export const EVERYTHING_ENTRY = join(
  __dirname,
  '../../../../node_modules/@modelcontextprotocol/server-everything/dist/index.js',
);

/** A redactor (with `canaries`) and a recorder of a direct execution that has started. */
export function setupRecorder(canaries: string[] = []): { recorder: TraceRecorder; redactor: Redactor } {
  const redactor = new Redactor(canaries);
  const recorder = new TraceRecorder({ executionId: 'exec-0123456789abcdef0123456789abcdef', redactor });
  recorder.record('execution.created', { payload: { runtime: 'direct', servers: [] } });
  return { recorder, redactor };
}

/**
 * Connects an MCP client to server-everything through `ObservedTransport` over `transport`, checks
 * that `tools/list` offers `echo` and that `echo` returns `message`, then closes the client.
 */
export async function echoThroughEverything(
  transport: Transport,
  recorder: TraceRecorder,
  message: string,
): Promise<void> {
  const client = new Client({ name: 'test', version: '1.0.0' });
  await client.connect(new ObservedTransport(transport, { recorder, server: 'everything', connectionId: CONNECTION }));
  const { tools } = await client.listTools();
  expect(tools.map((t) => t.name)).toContain('echo');
  const echoed = await client.callTool({ name: 'echo', arguments: { message } });
  expect(JSON.stringify(echoed.content)).toContain(message);
  await client.close();
}
