// `toHaveToolCall(tool, { inputRounds })` against the real SDK v2 fixture server: the confirm tool
// asks for one elicitation round on 2026-07-28, and on 2025-11-25 sends a server-to-client
// elicitation instead (no round).
import { MCPTestKit } from '../../core/src/kit/MCPTestKit';
import { v2InProcess } from '@sf-m3/test-utils/client';
import type { DirectClient } from '../../core/src/client/DirectClient';
import { m3Matchers } from './index';
import { failureOf } from './matchers.testkit';

expect.extend(m3Matchers);

describe('toHaveToolCall inputRounds (SDK v2 server in process)', () => {
  let kit: MCPTestKit;
  beforeEach(() => {
    kit = new MCPTestKit();
  });
  afterEach(async () => {
    await kit.close();
  });

  async function deploy(protocol: 'auto' | 'legacy'): Promise<DirectClient> {
    const client = await kit
      .direct(v2InProcess(), { protocol, onElicitation: () => ({ action: 'accept', content: { confirm: true } }) })
      .connect();
    await client.callTool('confirm', { action: 'deploy' });
    await client.close();
    return client;
  }

  test('2026-07-28: the call took one input round', async () => {
    const client = await deploy('auto');
    expect(client.initialization.era).toBe('modern');
    expect(client.finalTrace.view().toolCalls[0]!.inputRounds).toBe(1);
    expect(client).toHaveToolCall('confirm', { inputRounds: 1, status: 'success' });
    expect(client).not.toHaveToolCall('confirm', { inputRounds: 0 });
    const message = failureOf(() => expect(client).toHaveToolCall('confirm', { inputRounds: 2 }));
    // The latency and the execution id differ per run.
    expect(message.replace(/ \d+ms/g, ' Nms').replace(/exec-[0-9a-f]+/g, 'exec-ID')).toMatchSnapshot();
  });

  test('2025-11-25: the elicitation was a server request, so the call took no round', async () => {
    const client = await deploy('legacy');
    expect(client.initialization.era).toBe('legacy');
    expect(client.finalTrace.view().toolCalls[0]).not.toHaveProperty('inputRounds');
    expect(client).toHaveToolCall('confirm', { inputRounds: 0 });
    expect(client).not.toHaveToolCall('confirm', { inputRounds: 1 });
  });

  test('inputRounds must be a non-negative integer', async () => {
    const client = await deploy('auto');
    expect(() => expect(client).toHaveToolCall('confirm', { inputRounds: -1 })).toThrow(
      /options.inputRounds must be a non-negative integer/,
    );
  });
});
