// The third-party `@modelcontextprotocol/server-everything` through the public API: over stdio
// (the kit spawns and reaps it) and over Streamable HTTP (the test runs it with `streamableHttp`
// on a free port given in PORT; the kit only connects).
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { ModelValidationError } from '../errors';
import { MCPTestKit } from '../kit/MCPTestKit';
import { HTTPServer } from '../servers/HTTPServer';
import type { ServerDefinition } from '../servers/ServerDefinition';
import { StdioServer } from '../servers/StdioServer';
import { rejection, requests, SERVER_EVERYTHING, waitForExit } from '@sf-m3/test-utils/client';

/** A port that was free a moment ago. */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/** Starts server-everything's Streamable HTTP mode (it reads PORT) and waits until it listens. */
async function startEverythingHttp(): Promise<{ child: ChildProcess; url: string }> {
  const port = await freePort();
  const child = spawn(process.execPath, [SERVER_EVERYTHING, 'streamableHttp'], {
    env: { PATH: process.env.PATH ?? '', PORT: String(port) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  await new Promise<void>((resolve, reject) => {
    let text = '';
    const timer = setTimeout(() => reject(new Error(`server-everything did not listen within 15 s: ${text}`)), 15_000);
    child.stderr!.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
      if (text.includes(`listening on port ${port}`)) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server-everything exited with ${String(code)}: ${text}`));
    });
  });
  return { child, url: `http://127.0.0.1:${port}/mcp` };
}

let httpChild: ChildProcess | undefined;
let httpUrl = '';
beforeAll(async () => {
  ({ child: httpChild, url: httpUrl } = await startEverythingHttp());
}, 30_000);
afterAll(() => {
  httpChild?.kill('SIGKILL');
});

let kit: MCPTestKit;
beforeEach(() => {
  kit = new MCPTestKit({ suiteName: 'server-everything' });
});
afterEach(async () => {
  await kit.close();
});

/** Valid arguments for every tool server-everything lists to a client with these callbacks. */
const VALID_CALLS: ReadonlyArray<[string, Record<string, unknown>]> = [
  ['echo', { message: 'hi' }],
  ['get-annotated-message', { messageType: 'success', includeImage: true }],
  ['get-env', {}],
  ['get-resource-links', { count: 2 }],
  ['get-resource-reference', { resourceType: 'Text', resourceId: 1 }],
  ['get-structured-content', { location: 'Chicago' }],
  ['get-sum', { a: 1, b: 2 }],
  ['get-tiny-image', {}],
  // A data URI, so the tool fetches nothing from the network.
  ['gzip-file-as-resource', { name: 'hi.txt.gz', data: 'data:text/plain;base64,aGVsbG8=', outputType: 'resource' }],
  ['toggle-simulated-logging', {}],
  ['toggle-simulated-logging', {}],
  ['toggle-subscriber-updates', {}],
  ['toggle-subscriber-updates', {}],
  ['trigger-long-running-operation', { duration: 0.2, steps: 2 }],
  ['trigger-elicitation-request', {}],
  ['trigger-sampling-request', { prompt: 'hi', maxTokens: 20 }],
  ['get-roots-list', {}],
];
/** Listed, but not callable through `tools/call` alone: it needs the client's tasks API. */
const TASK_ONLY = ['simulate-research-query'];

const transports: Array<[string, () => ServerDefinition]> = [
  [
    'stdio',
    () => new StdioServer({ name: 'everything', command: process.execPath, args: [SERVER_EVERYTHING, 'stdio'] }),
  ],
  ['http', () => new HTTPServer({ name: 'everything', url: httpUrl })],
];

describe.each(transports)('@modelcontextprotocol/server-everything over %s', (transport, server) => {
  test('discovers its tools, resources and prompts and calls echo', async () => {
    const client = await kit.direct(server(), { timeoutMs: 20_000 }).connect();
    expect(client.initialization?.serverInfo.name).toMatch(/everything/i);
    expect(client.initialization?.capabilities).toMatchObject({ tools: {} });
    const tools = await client.listAllTools();
    const names = tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['echo', 'get-sum']));
    expect(tools.find((t) => t.name === 'echo')?.inputSchema).toMatchObject({ type: 'object' });
    expect((await client.listAllResources()).length).toBeGreaterThan(0);
    expect((await client.listAllPrompts()).length).toBeGreaterThan(0);

    const echoed = await client.callTool('echo', { message: `hello over ${transport}` });
    expect(echoed.isError).toBe(false);
    expect(echoed.content).toEqual([{ type: 'text', text: `Echo: hello over ${transport}` }]);
    await client.ping();
    await client.close();

    expect(client.result?.snapshot.outcome).toBe('completed');
    const view = client.result!.traceView;
    expect(view.toolCalls).toHaveLength(1);
    expect(view.toolCalls[0]).toMatchObject({ server: 'everything', toolStatus: 'success' });
    expect(requests(client.finalTrace!.events, 'tools/list').length).toBeGreaterThan(0);
    expect((await kit.store.getExecution(client.executionId)).servers[0]).toMatchObject({ transport });
    const started = client.finalTrace!.events.find((e) => e.kind === 'process.started');
    if (transport === 'stdio') expect(await waitForExit(started!.payload.pid as number)).toBe(true);
    else expect(started).toBeUndefined();
  });
  test('progress and the elicitation, sampling, roots and log callbacks against a third-party server', async () => {
    const logs: Array<{ level: string; data: unknown }> = [];
    let gotLog!: () => void;
    const logged = new Promise<void>((resolve) => (gotLog = resolve));
    const client = await kit
      .direct(server(), {
        timeoutMs: 20_000,
        onElicitation: (params) => {
          expect(params.message).toBeTruthy();
          return { action: 'accept', content: { name: 'Ada' } };
        },
        onSampling: (params) => {
          expect(params.messages[0]!.content).toMatchObject({
            type: 'text',
            text: expect.stringContaining('hi there'),
          });
          return { role: 'assistant', model: 'qa-fixture-model', content: { type: 'text', text: 'sampled reply' } };
        },
        onRoots: () => [{ uri: 'file:///qa-root', name: 'qa' }],
        onLogMessage: (params) => {
          logs.push({ level: params.level, data: params.data });
          if (/-level message|level-message/.test(String(params.data))) gotLog();
        },
      })
      .connect();
    // server-everything registers these tools only for clients that declared the capability.
    const names = (await client.listAllTools()).map((t) => t.name);
    expect(names).toEqual(
      expect.arrayContaining(['trigger-elicitation-request', 'trigger-sampling-request', 'get-roots-list']),
    );

    const progress: Array<[number, number | undefined]> = [];
    const long = await client.callTool(
      'trigger-long-running-operation',
      { duration: 0.3, steps: 3 },
      { onProgress: (p) => progress.push([p.progress, p.total]) },
    );
    expect(long.isError).toBe(false);
    // Over stdio the raw SDK Client, like ours, reports only the first two of the three steps from
    // this server (the last one races the result), so only those are asserted.
    expect(progress.slice(0, 2)).toEqual([
      [1, 3],
      [2, 3],
    ]);

    const elicited = await client.callTool('trigger-elicitation-request');
    expect(JSON.stringify(elicited.content)).toContain('- Name: Ada');
    const sampled = await client.callTool('trigger-sampling-request', { prompt: 'hi there' });
    expect(JSON.stringify(sampled.content)).toContain('sampled reply');
    const roots = await client.callTool('get-roots-list');
    expect(JSON.stringify(roots.content)).toContain('file:///qa-root');

    await client.setLoggingLevel('debug');
    await client.callTool('toggle-simulated-logging');
    await logged;
    expect(logs.map((l) => String(l.data))).toEqual(
      expect.arrayContaining([expect.stringMatching(/-level message|level-message/)]),
    );
    await client.close();

    const kinds = client.finalTrace!.events.map((e) => e.kind);
    expect(kinds.filter((k) => k === 'mcp.progress').length).toBeGreaterThanOrEqual(progress.length);
    expect(kinds).toEqual(
      expect.arrayContaining(['mcp.progress', 'elicitation.request', 'elicitation.response', 'sampling.request']),
    );
    expect(client.result?.snapshot.outcome).toBe('completed');
  });

  test('validateSchemas accepts valid arguments for every tool and refuses invalid ones before sending', async () => {
    const client = await kit
      .direct(server(), {
        timeoutMs: 20_000,
        validateSchemas: true,
        onElicitation: () => ({ action: 'accept', content: { name: 'Ada' } }),
        onSampling: () => ({ role: 'assistant', model: 'fixture', content: { type: 'text', text: 'ok' } }),
        onRoots: () => [{ uri: 'file:///qa-root', name: 'qa' }],
      })
      .connect();
    const listed = (await client.listAllTools()).map((t) => t.name).sort();
    // Every listed tool is either called below or named as task-only, so a new tool is noticed.
    expect(listed).toEqual([...new Set([...VALID_CALLS.map(([name]) => name), ...TASK_ONLY])].sort());
    for (const [name, args] of VALID_CALLS) {
      const result = await client.callTool(name, args);
      expect({ name, isError: result.isError }).toEqual({ name, isError: false });
    }
    const structured = await client.callTool<{ temperature: number }>('get-structured-content', {
      location: 'New York',
    });
    expect(typeof structured.structuredContent?.temperature).toBe('number');

    const wrongType = await rejection(client.callTool('get-sum', { a: 'one', b: 2 }));
    expect(wrongType).toBeInstanceOf(ModelValidationError);
    expect(wrongType.message).toBe(
      'tool JSON Schema validation failed: get-sum: invalid_arguments: /a must be number (type)',
    );
    const wrongEnum = await rejection(client.callTool('get-structured-content', { location: 'Paris' }));
    expect(wrongEnum.message).toContain('get-structured-content: invalid_arguments: /location must be equal to one of');
    await client.close();
    const calls = requests(client.finalTrace!.events, 'tools/call');
    expect(calls).toHaveLength(VALID_CALLS.length + 1);
  }, 60_000);
});
