import { createExampleServer } from '@sf-m3/example-servers';
import { OperationCancelled, OperationTimeout, ProtocolError, TransportError } from '../errors';
import { MCPTestKit } from '../kit/MCPTestKit';
import { secretFromEnv } from '../redaction/SecretRef';
import { HTTPServer } from '../servers/HTTPServer';
import { createFeatureServer, startLoopbackHttp, type LoopbackEndpoint } from '@sf-m3/test-utils/client';

let kit: MCPTestKit;
let endpoint: LoopbackEndpoint;
beforeEach(() => {
  kit = new MCPTestKit();
});
afterEach(async () => {
  await kit.close();
  await endpoint?.close();
});

describe('DirectClient over Streamable HTTP (loopback SDK server)', () => {
  test('every list and a tool call, recorded as an http execution', async () => {
    endpoint = await startLoopbackHttp(createExampleServer);
    const client = await kit.direct(new HTTPServer({ name: 'example-http', url: endpoint.url })).connect();
    expect((await client.listAllTools()).map((t) => t.name)).toContain('catalog_marker');
    expect((await client.readResource('memory://testing-guide')).text).toContain('Discover capabilities');
    const quote = await client.callTool('shipping_quote', { weight_kg: 3, zone: 'regional' });
    expect(quote.structuredContent).toEqual({ amount: 15.5, currency: 'USD' });
    await expect(client.readResource('memory://orders/nope')).rejects.toThrow(ProtocolError);
    await client.close();
    expect(client.result?.snapshot.outcome).toBe('failed');
    const record = await kit.store.getExecution(client.executionId);
    expect(record.servers[0]).toMatchObject({ name: 'example-http', transport: 'http' });
    expect(client.result!.traceView.runtime).toMatchObject({ kind: 'direct' });
  });

  test('progress, timeouts and close-in-flight work over HTTP', async () => {
    endpoint = await startLoopbackHttp(createFeatureServer);
    const client = await kit.direct(new HTTPServer({ name: 'feature-http', url: endpoint.url })).connect();
    const progress: number[] = [];
    await client.callTool('slow', { ms: 1, steps: 2 }, { onProgress: (p) => progress.push(p.progress) });
    expect(progress).toEqual([1, 2]);
    await expect(client.callTool('slow', { ms: 5_000 }, { timeoutMs: 100 })).rejects.toThrow(OperationTimeout);
    const call = client.callTool('slow', { ms: 10_000 }).catch((e: unknown) => e);
    await new Promise((r) => setTimeout(r, 50));
    await client.close();
    expect(await call).toBeInstanceOf(OperationCancelled);
    expect(client.result?.snapshot.outcome).toBe('cancelled');
  });

  test('a bearer token from the environment is sent and redacted from the trace', async () => {
    const token = 'http-bearer-token-5e6f7a8b';
    endpoint = await startLoopbackHttp(createFeatureServer, { token });
    process.env.M3_CLIENT_HTTP_TOKEN = token;
    try {
      const server = new HTTPServer({ name: 'secured', url: endpoint.url });
      const client = await kit.direct(server, { bearerToken: secretFromEnv('M3_CLIENT_HTTP_TOKEN') }).connect();
      const echoed = await client.callTool('echo', { text: `token is ${token}` });
      expect(echoed.content[0]).toMatchObject({ text: `token is ${token}` });
      await client.close();
      expect(endpoint.authorizations).toContain(`Bearer ${token}`);
      expect(JSON.stringify(await kit.getTrace(client.executionId))).not.toContain(token);
    } finally {
      delete process.env.M3_CLIENT_HTTP_TOKEN;
    }
    const unset = kit.direct(new HTTPServer({ name: 'secured', url: endpoint.url }), {
      bearerToken: secretFromEnv('M3_CLIENT_HTTP_TOKEN_UNSET'),
    });
    await expect(unset.connect()).rejects.toThrow(/export M3_CLIENT_HTTP_TOKEN_UNSET/);
  });

  test('a refused endpoint fails connect with a transport error', async () => {
    endpoint = await startLoopbackHttp(createFeatureServer);
    const url = endpoint.url;
    await endpoint.close();
    const client = kit.direct(new HTTPServer({ name: 'gone', url }), { timeoutMs: 5_000 });
    await expect(client.connect()).rejects.toThrow(TransportError);
    expect(client.result?.snapshot.outcome).toBe('failed');
  });
});
