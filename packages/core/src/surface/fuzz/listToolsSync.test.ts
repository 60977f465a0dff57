import { join } from 'node:path';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { secretFromEnv } from '../../redaction/SecretRef';
import { InProcessServer } from '../../servers/InProcessServer';
import { StdioServer } from '../../servers/StdioServer';
import { listingRequest, listToolsSync } from './listToolsSync';

const PLANTED = join(__dirname, '__fixtures__', 'planted-faults-server.js');

afterEach(() => {
  delete process.env.M3_FUZZ_LISTING_SECRET;
});

describe('listToolsSync (describe.m3.fuzz at collection)', () => {
  test('lists a stdio server synchronously, with the schemas the fuzzer needs', () => {
    const listing = listToolsSync(new StdioServer({ name: 'planted', command: process.execPath, args: [PLANTED] }));
    expect('tools' in listing && listing.tools.map((tool) => tool.name)).toEqual([
      'healthy',
      'crash',
      'hang',
      'bad_output',
      'rpc_error',
    ]);
    const badOutput = 'tools' in listing ? listing.tools.find((tool) => tool.name === 'bad_output') : undefined;
    expect(badOutput).toMatchObject({
      inputSchema: { properties: { qty: { type: 'integer' } } },
      outputSchema: { properties: { total: { type: 'number' } } },
    });
  });

  test('a secret crosses to the listing process as its name, never its value; the child resolves it', () => {
    process.env.M3_FUZZ_LISTING_SECRET = 'listing-secret-4f2a9c';
    const server = new StdioServer({
      name: 'planted',
      command: process.execPath,
      args: [PLANTED],
      env: { PLANTED_TOKEN: secretFromEnv('M3_FUZZ_LISTING_SECRET') },
    });
    const sent = JSON.stringify(listingRequest(server, 1000));
    expect(sent).toContain('{"kind":"secret_ref","env":"M3_FUZZ_LISTING_SECRET"}');
    expect(sent).not.toContain('listing-secret-4f2a9c');
    expect('tools' in listToolsSync(server)).toBe(true);
    // Without the variable the child cannot start the server, and says which secret is missing.
    delete process.env.M3_FUZZ_LISTING_SECRET;
    const listing = listToolsSync(server);
    expect('error' in listing && listing.error).toContain('M3_FUZZ_LISTING_SECRET');
  });

  test('an in-process server cannot be listed at collection: the error says to pass tools', () => {
    const server = new InProcessServer({ name: 'calc', factory: () => new McpServer({ name: 'calc', version: '1' }) });
    expect(listToolsSync(server)).toEqual({
      error:
        'describe.m3.fuzz cannot list the tools of in-process server calc while Jest collects tests: ' +
        "pass the tool names, describe.m3.fuzz(server, { tools: ['add', ...] })",
    });
  });

  test('a server that does not start: the error names the server and why', () => {
    const listing = listToolsSync(new StdioServer({ name: 'gone', command: join(__dirname, 'no-such-server') }));
    expect('error' in listing && listing.error).toMatch(
      /^describe\.m3\.fuzz could not list the tools of server gone: /,
    );
  });
});
