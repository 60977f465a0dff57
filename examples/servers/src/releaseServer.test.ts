import { newReleaseState, RELEASE_SERVER_NAME, type ReleaseEra } from './releaseServer';
import { connectRelease, resultText, type ReleaseConnection } from './releaseServer.testkit';

const ACCEPT = { action: 'accept' as const, content: { confirm: true } };

describe.each<[string, ReleaseEra]>([
  ['2026-07-28', 'modern'],
  ['2025 handshake', 'legacy'],
])('release server, SDK v2 client in %s', (_label, era) => {
  let connection: ReleaseConnection | undefined;
  afterEach(async () => {
    await connection?.close();
    connection = undefined;
  });

  test('identifies itself and lists its tools, rollback not yet offered', async () => {
    connection = await connectRelease(era, newReleaseState());
    expect(connection.client.getProtocolEra()).toBe(era);
    expect(connection.client.getServerVersion()).toMatchObject({ name: RELEASE_SERVER_NAME });
    expect(connection.client.getInstructions()).toBe(`Release server (${era} era).`);
    const { tools } = await connection.client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['current_version', 'deploy', 'enable_rollback']);
    const current = await connection.client.callTool({ name: 'current_version', arguments: {} });
    expect(current.structuredContent).toEqual({ version: '1.0.0' });
  });

  test('deploy asks the user to confirm, then deploys', async () => {
    const state = newReleaseState();
    connection = await connectRelease(era, state, ACCEPT);
    const result = await connection.client.callTool({ name: 'deploy', arguments: { version: '2.0.0' } });
    expect(connection.asked).toEqual(['Deploy 2.0.0 (now 1.0.0)?']);
    expect(resultText(result)).toBe('deployed 2.0.0');
    expect(result.structuredContent).toEqual({ version: '2.0.0', previous: '1.0.0' });
    expect(state).toMatchObject({ version: '2.0.0', history: ['1.0.0'] });
  });

  test.each([
    ['declines', { action: 'decline' as const }],
    ['cancels', { action: 'cancel' as const }],
    ['answers no', { action: 'accept' as const, content: { confirm: false } }],
  ])('deploy is cancelled when the user %s', async (_how, answer) => {
    const state = newReleaseState();
    connection = await connectRelease(era, state, answer);
    const result = await connection.client.callTool({ name: 'deploy', arguments: { version: '2.0.0' } });
    expect(connection.asked).toHaveLength(1);
    expect(resultText(result)).toBe('deploy of 2.0.0 cancelled; 1.0.0 stays live');
    expect(state).toMatchObject({ version: '1.0.0', history: [] });
  });

  test('enable_rollback adds rollback to the tool list; rollback returns to the previous version', async () => {
    const state = newReleaseState();
    connection = await connectRelease(era, state, ACCEPT);
    const { client } = connection;
    expect(resultText(await client.callTool({ name: 'enable_rollback', arguments: {} }))).toBe('rollback enabled');
    expect(resultText(await client.callTool({ name: 'enable_rollback', arguments: {} }))).toBe(
      'rollback already enabled',
    );
    const { tools } = await client.listTools(undefined, { cacheMode: 'bypass' });
    expect(tools.map((t) => t.name)).toContain('rollback');

    const early = await client.callTool({ name: 'rollback', arguments: {} });
    expect(early.isError).toBe(true);
    expect(resultText(early)).toBe('nothing to roll back to: 1.0.0 is the first deploy');

    await client.callTool({ name: 'deploy', arguments: { version: '2.0.0' } });
    expect(resultText(await client.callTool({ name: 'rollback', arguments: {} }))).toBe('rolled back to 1.0.0');
    expect(state).toMatchObject({ version: '1.0.0', history: [] });
  });
});

test('a 2025 client without elicitation gets a tool error naming the missing capability', async () => {
  const state = newReleaseState();
  const connection = await connectRelease('legacy', state);
  try {
    const result = await connection.client.callTool({ name: 'deploy', arguments: { version: '2.0.0' } });
    expect(result.isError).toBe(true);
    expect(resultText(result)).toMatch(/Cannot request input 'confirm' \(elicitation\/create\).*required capability/);
    expect(state.version).toBe('1.0.0');
  } finally {
    await connection.close();
  }
});

test('a new instance built from the same state offers rollback, as per-request instances over HTTP do', async () => {
  const state = newReleaseState();
  const first = await connectRelease('modern', state);
  try {
    await first.client.callTool({ name: 'enable_rollback', arguments: {} });
  } finally {
    await first.close();
  }
  const second = await connectRelease('modern', state);
  try {
    const { tools } = await second.client.listTools();
    expect(tools.map((t) => t.name)).toContain('rollback');
  } finally {
    await second.close();
  }
});
