// The redaction canaries of contract §2 through the public API: a plain (non-SecretRef) env value whose
// name says TOKEN/KEY/SECRET/PASSWORD, and a header value, are canaries for everything the kit
// keeps afterwards — events, the stored trace, the view, the stderr capture, error messages and
// the execution's saved error — on any connection of that kit.
import { inspect } from 'node:util';
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { ProtocolError } from '../errors';
import { MCPTestKit } from '../kit/MCPTestKit';
import { HTTPServer } from '../servers/HTTPServer';
import { InProcessServer } from '../servers/InProcessServer';
import { StdioServer } from '../servers/StdioServer';
import {
  createFeatureServer,
  rejection,
  startLoopbackHttp,
  STDIO_FIXTURE,
  type LoopbackEndpoint,
} from '@sf-m3/test-utils/client';

const ENV_TOKEN = 'plain-env-token-value-8c7b6a';
const ENV_PASSWORD = 'plain-env-password-3e2d1c';
const HEADER_KEY = 'plain-header-api-key-9a8b7c';

/** An in-process server whose tool and error echo whatever it is given. */
function createLeakyServer(): McpServer {
  const mcp = new McpServer({ name: 'leaky', version: '1.0.0' });
  mcp.registerTool('reflect', { inputSchema: { text: z.string() } }, ({ text }) => ({
    content: [{ type: 'text', text: `you said ${text}` }],
    structuredContent: { said: text },
  }));
  mcp.registerResource(
    'refusals',
    new ResourceTemplate('leaky://{text}', { list: undefined }),
    {},
    (_uri, { text }) => {
      throw new McpError(ErrorCode.InvalidParams, `cannot accept ${String(text)}`);
    },
  );
  return mcp;
}

let kit: MCPTestKit;
let endpoint: LoopbackEndpoint | undefined;
beforeEach(() => {
  kit = new MCPTestKit({ suiteName: 'redaction' });
});
afterEach(async () => {
  await kit.close();
  await endpoint?.close();
  endpoint = undefined;
});

describe('redaction canaries', () => {
  test('sensitive env names make their plain values canaries for events, stderr, errors and the store', async () => {
    const stdio = new StdioServer({
      name: 'fixture',
      command: process.execPath,
      args: [STDIO_FIXTURE],
      env: { FIXTURE_TOKEN: ENV_TOKEN, DB_PASSWORD: ENV_PASSWORD, PLAIN_SETTING: 'visible-setting' },
    });
    const first = await kit.direct(stdio).connect();
    const echoed = await first.callTool('echo', { text: `${ENV_TOKEN} and ${ENV_PASSWORD} and visible-setting` });
    // The tool result handed to the test is the server's answer, untouched.
    expect(echoed.content[0]).toMatchObject({ text: `${ENV_TOKEN} and ${ENV_PASSWORD} and visible-setting` });
    await first.close();
    const stderr = first.result!.traceView.processes[0]!.stderr;
    expect(stderr.value).toMatchObject({ preview: 'starting with token [REDACTED]\n', redacted: true });

    // A later connection of the same kit: the server echoes the canaries back in a result and an error.
    const leaky = await kit.direct(new InProcessServer({ name: 'leaky', factory: createLeakyServer })).connect();
    await leaky.callTool('reflect', { text: ENV_TOKEN });
    const error = await rejection(leaky.readResource(`leaky://${ENV_PASSWORD}`));
    expect(error).toBeInstanceOf(ProtocolError);
    expect(error.message).toContain('cannot accept [REDACTED]');
    expect(error.message).not.toContain(ENV_PASSWORD);
    expect(JSON.stringify((error as ProtocolError).details)).not.toContain(ENV_PASSWORD);
    // Jest prints an error's cause: the SDK error kept there is redacted too.
    expect(inspect(error)).not.toContain(ENV_PASSWORD);
    expect(inspect(error)).toContain('[cause]');
    await leaky.close();
    expect(leaky.result?.error?.message).toContain('[REDACTED]');

    for (const client of [first, leaky]) {
      const everything = JSON.stringify([
        client.finalTrace,
        client.result!.traceView,
        client.result!.error ?? null,
        await kit.getTrace(client.executionId),
        await kit.store.getExecution(client.executionId),
      ]);
      expect(everything).not.toContain(ENV_TOKEN);
      expect(everything).not.toContain(ENV_PASSWORD);
      expect(everything).toContain('[REDACTED]');
    }
    expect(JSON.stringify(first.finalTrace)).toContain('visible-setting');
  });

  test('a header value is a canary: sent to the server, never kept', async () => {
    endpoint = await startLoopbackHttp(createFeatureServer);
    const server = new HTTPServer({ name: 'keyed', url: endpoint.url, headers: { 'X-Api-Key': HEADER_KEY } });
    const client = await kit.direct(server).connect();
    await client.callTool('echo', { text: `key=${HEADER_KEY}` });
    await client.close();
    const kept = JSON.stringify([client.finalTrace, client.result!.traceView, await kit.getTrace(client.executionId)]);
    expect(kept).not.toContain(HEADER_KEY);
    expect(kept).toContain('key=[REDACTED]');
  });
});
