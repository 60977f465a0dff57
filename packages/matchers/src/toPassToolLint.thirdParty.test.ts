// toPassToolLint on MCP servers nobody here wrote, run from node_modules over stdio
// (contract §25: "tried on servers nobody here wrote"). What the lint finds is asserted exactly
// and written down in packages/core/docs/lint.md; today it finds nothing on any of the three.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MCPTestKit } from '../../core/src/kit/MCPTestKit';
import { StdioServer } from '../../core/src/servers/StdioServer';
import { lintTools } from '../../core/src/surface/lint/lintTools';
import { m3Matchers } from './index';

expect.extend(m3Matchers);

let sandbox: string;
let kit: MCPTestKit;
beforeAll(() => {
  sandbox = mkdtempSync(join(tmpdir(), 'm3-lint-third-party-'));
});
afterAll(() => {
  rmSync(sandbox, { recursive: true, force: true });
});
beforeEach(() => {
  kit = new MCPTestKit({ recordChecks: true });
});
afterEach(async () => {
  await kit.close();
});

const entry = (pkg: string) => require.resolve(`@modelcontextprotocol/${pkg}/dist/index.js`);

const SERVERS: ReadonlyArray<[string, () => StdioServer, number]> = [
  [
    'server-everything',
    () =>
      new StdioServer({ name: 'everything', command: process.execPath, args: [entry('server-everything'), 'stdio'] }),
    13,
  ],
  [
    'server-memory',
    () =>
      new StdioServer({
        name: 'memory',
        command: process.execPath,
        args: [entry('server-memory')],
        env: { MEMORY_FILE_PATH: join(sandbox, 'memory.jsonl') },
      }),
    9,
  ],
  [
    'server-filesystem (sandboxed in a temp folder)',
    () =>
      new StdioServer({ name: 'filesystem', command: process.execPath, args: [entry('server-filesystem'), sandbox] }),
    14,
  ],
];

describe.each(SERVERS)('toPassToolLint on %s', (_label, server, toolCount) => {
  test('lists its tools twice and passes every rule, silent_redefinition included', async () => {
    const client = await kit.direct(server()).connect();
    await client.listAllTools();
    const tools = await client.listAllTools();
    expect(tools).toHaveLength(toolCount);
    // The full report, so a finding shows up here verbatim.
    expect(lintTools(tools).violations.map((v) => v.message)).toEqual([]);
    expect(tools).toPassToolLint();
    // The same real listing with one planted zero-width space fails, so the pass above means something.
    const planted = tools.map((t, i) => (i === 0 ? { ...t, description: `${t.description ?? ''}\u200B` } : t));
    expect(planted).not.toPassToolLint();
    await client.close();
  }, 60_000);
});
