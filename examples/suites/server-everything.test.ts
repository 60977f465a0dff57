// A third-party server: the MCP project's own reference server, over stdio.
import { everythingServer } from './servers';

describe.m3('server-everything', () => {
  test('discover its tools and call echo', async () => {
    const client = await m3Kit.direct(everythingServer).connect();
    expect((await client.initialize()).serverInfo.name).toBe('mcp-servers/everything');

    const tools = await client.listAllTools();
    expect(tools.map((tool) => tool.name)).toContain('echo');

    const echoed = await client.callTool('echo', { message: 'hello from sf-m3' });
    expect(echoed).toHaveTextContaining('hello from sf-m3');

    await client.close();
    expect(client.result).toHaveToolCall('echo', {
      argumentsPartial: true,
      arguments: { message: 'hello from sf-m3' },
    });
  });
});
