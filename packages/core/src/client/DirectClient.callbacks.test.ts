import { InProcessServer } from '../servers/InProcessServer';
import { createFeatureServer, kinds, requests, useKitPerTest } from '@sf-m3/test-utils/client';

const feature = new InProcessServer({ name: 'feature', factory: createFeatureServer });

const kit = useKitPerTest({ suiteName: 'direct-client', caseId: 'case-1' });

describe('progress and server-to-client callbacks', () => {
  test('onProgress receives the tool call progress notifications', async () => {
    const client = await kit().direct(feature).connect();
    const seen: number[] = [];
    const result = await client.callTool('slow', { ms: 1, steps: 3 }, { onProgress: (p) => seen.push(p.progress) });
    expect(result.content).toEqual([expect.objectContaining({ text: 'slept 1' })]);
    expect(seen).toEqual([1, 2, 3]);
    await client.close();
    expect(client.finalTrace!.events.filter((e) => e.kind === 'mcp.progress')).toHaveLength(3);
  });

  test('elicitation, sampling, roots and log callbacks answer the server', async () => {
    const logs: unknown[] = [];
    const client = await kit()
      .direct(feature, {
        onElicitation: (params) => {
          expect(params.message).toBe('What is your name?');
          return { action: 'accept', content: { name: 'Ada' } };
        },
        onSampling: () => ({ role: 'assistant', model: 'fixture', content: { type: 'text', text: 'hi' } }),
        onRoots: () => [{ uri: 'file:///repo', name: 'repo' }],
        onLogMessage: (params) => logs.push(params),
      })
      .connect();
    expect((await client.callTool('ask')).content[0]).toMatchObject({ text: 'hello Ada' });
    expect((await client.callTool('sample')).content[0]).toMatchObject({ text: 'model said hi' });
    expect((await client.callTool('roots')).content[0]).toMatchObject({ text: 'file:///repo' });
    expect((await client.callTool('log', { text: 'careful' })).content[0]).toMatchObject({ text: 'logged' });
    expect(logs).toEqual([expect.objectContaining({ level: 'warning', data: 'careful' })]);
    await client.close();
    const init = requests(client.finalTrace!.events, 'initialize')[0]!;
    expect((init.payload.params as { capabilities: object }).capabilities).toEqual({
      elicitation: { form: { applyDefaults: true } },
      sampling: {},
      roots: { listChanged: true },
    });
    const events = kinds(client.finalTrace!.events);
    expect(events).toEqual(expect.arrayContaining(['elicitation.request', 'elicitation.response', 'sampling.request']));
    const directions = new Set(client.finalTrace!.events.map((e) => e.direction).filter((d) => d !== undefined));
    expect(directions).toEqual(new Set(['internal', 'client_to_server', 'server_to_client']));
  });

  test('capabilities are declared only for the callbacks given; a throwing callback leaks nothing', async () => {
    const secret = 'callback-secret-value-1234';
    const plain = await kit().direct(feature).connect();
    await plain.close();
    const init = requests(plain.finalTrace!.events, 'initialize')[0]!;
    expect((init.payload.params as { capabilities: object }).capabilities).toEqual({});

    const client = await kit()
      .direct(feature, {
        onElicitation: () => {
          throw new Error(`database password is ${secret}`);
        },
      })
      .connect();
    const result = await client.callTool('ask');
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result)).toContain('MCP callback failed');
    await client.close();
    expect(JSON.stringify(client.finalTrace)).not.toContain(secret);
  });
});
