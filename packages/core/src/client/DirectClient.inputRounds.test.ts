import { ProtocolError } from '../errors';
import type { ServerDefinition } from '../servers/ServerDefinition';
import type { DirectClient } from './DirectClient';
import type { ElicitationCallback } from './DirectClientOptions';
import { useKitPerTest } from '@sf-m3/test-utils/client';
import { v2InProcess, v2Stdio } from '@sf-m3/test-utils/client';

const kit = useKitPerTest({ suiteName: 'input-rounds', caseId: 'rounds' });

const confirmYes: ElicitationCallback = (params) => {
  expect(params.message).toBe('Really deploy?');
  return { action: 'accept', content: { confirm: true } };
};

async function deploy(server: ServerDefinition, protocol: 'auto' | 'legacy'): Promise<DirectClient> {
  const client = await kit().direct(server, { protocol, onElicitation: confirmYes }).connect();
  const result = await client.callTool('confirm', { action: 'deploy' });
  expect(result).toMatchObject({ isError: false, content: [{ type: 'text', text: 'deploy: done' }] });
  await client.close();
  return client;
}

describe.each([
  ['in process', () => v2InProcess()],
  ['stdio', () => v2Stdio('both')],
])('input rounds against an SDK v2 server %s', (_where, server) => {
  test('modern: onElicitation answers the input_required round; the trace has one tool call and the round', async () => {
    const client = await deploy(server(), 'auto');
    expect(client.initialization.era).toBe('modern');
    const view = client.finalTrace.view();
    expect(view.toolCalls).toHaveLength(1);
    expect(view.toolCalls[0]!.result.value).toMatchObject({ content: [{ type: 'text', text: 'deploy: done' }] });
    expect(view.interactions).toEqual([
      expect.objectContaining({
        interactionKind: 'elicitation',
        round: 1,
        inputKey: 'confirm',
        request: { state: 'observed', value: expect.objectContaining({ message: 'Really deploy?' }) },
        response: { state: 'observed', value: { action: 'accept', content: { confirm: true } } },
      }),
    ]);
    expect(view.summary.toolCallCount).toBe(1);
    // requestState goes back exactly as the server minted it (it holds a non-ASCII character).
    const [first, retry] = client.finalTrace.events.filter((e) => e.kind === 'tool.call_requested');
    const asked = client.finalTrace.events.find((e) => e.kind === 'tool.result_received');
    expect(asked?.payload.result).toMatchObject({ resultType: 'input_required', requestState: 'state:deploy:\u00e9' });
    expect(first?.payload.params).not.toHaveProperty('requestState');
    expect((retry?.payload.params as { requestState?: unknown }).requestState).toBe(
      (asked?.payload.result as { requestState?: unknown }).requestState,
    );
  });

  test('legacy: the same callback answers the server-to-client elicitation request', async () => {
    const client = await deploy(server(), 'legacy');
    expect(client.initialization.era).toBe('legacy');
    const view = client.finalTrace.view();
    expect(view.toolCalls).toHaveLength(1);
    expect(view.interactions).toEqual([
      expect.objectContaining({
        interactionKind: 'elicitation',
        response: { state: 'observed', value: { action: 'accept', content: { confirm: true } } },
      }),
    ]);
  });
});

describe('input rounds of readResource and getPrompt (SDK v2 server in process)', () => {
  test('onRoots answers a resources/read round and onSampling a prompts/get round', async () => {
    const client = await kit()
      .direct(v2InProcess(), {
        onRoots: () => [{ uri: 'file:///work', name: 'work' }],
        onSampling: () => ({ role: 'assistant', model: 'fake', content: { type: 'text', text: 'all quiet' } }),
      })
      .connect();
    expect((await client.readResource('memory://workspace')).text).toBe('roots: file:///work');
    const prompt = await client.getPrompt('briefing');
    expect(prompt.messages[0]!.content).toEqual({ type: 'text', text: 'briefing: all quiet' });
    await client.close();
    const rounds = client.finalTrace.view().interactions.map((i) => [i.interactionKind, i.round, i.inputKey]);
    expect(rounds).toEqual([
      ['roots', 1, 'roots'],
      ['sampling', 1, 'draft'],
    ]);
  });
});

describe('input rounds that cannot be answered', () => {
  test('a round the test gave no handler for names the handler to add', async () => {
    const client = await kit().direct(v2InProcess()).connect();
    const error = await client.callTool('confirm', { action: 'deploy' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProtocolError);
    expect(error).toMatchObject({ code: 'input_handler_missing', details: { handler: 'onElicitation' } });
    expect((error as Error).message).toMatch(
      /tools\/call needs input the test gave no handler for: the server asked for 'confirm' \(elicitation\/create\).*pass kit\.direct\(server, \{ onElicitation \}\)/,
    );
    await client.close();
  });

  test('past maxInputRounds the call fails with input_rounds_exceeded', async () => {
    const client = await kit()
      .direct(v2InProcess(), {
        maxInputRounds: 3,
        onElicitation: () => ({ action: 'accept', content: { confirm: true } }),
      })
      .connect();
    const error = await client.callTool('insist').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProtocolError);
    expect(error).toMatchObject({ code: 'input_rounds_exceeded' });
    await client.close();
    const rounds = client.finalTrace.view().interactions.map((i) => [i.round, i.inputKey]);
    expect(rounds.slice(0, 3)).toEqual([
      [1, 'again-1'],
      [2, 'again-2'],
      [3, 'again-3'],
    ]);
    expect(() => kit().direct(v2InProcess(), { maxInputRounds: 0 })).toThrow(/maxInputRounds must be a whole number/);
  });
});
