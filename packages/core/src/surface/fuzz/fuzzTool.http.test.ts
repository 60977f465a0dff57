// contract §25 over Streamable HTTP: server-everything runs in its `streamableHttp` mode on a free
// loopback port (the test owns the process; the kit only connects). Its tools are listed through
// the collection-time child (the HTTP branch of listToolsSync), then two of them are fuzzed.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import { MCPTestKit } from '../../kit/MCPTestKit';
import { HTTPServer } from '../../servers/HTTPServer';
import { fuzzTools } from './fuzzTool';
import { listToolsSync } from './listToolsSync';
import { findings, THIRD_PARTY_SEED } from './thirdParty.testkit';

jest.setTimeout(60_000);

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

let child: ChildProcess | undefined;
let url = '';
beforeAll(async () => {
  const port = await freePort();
  child = spawn(
    process.execPath,
    [require.resolve('@modelcontextprotocol/server-everything/dist/index.js'), 'streamableHttp'],
    { env: { PATH: process.env.PATH ?? '', PORT: String(port) }, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  await new Promise<void>((resolve, reject) => {
    let text = '';
    child!.stderr!.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
      if (text.includes(`listening on port ${port}`)) resolve();
    });
    child!.once('exit', (code) => reject(new Error(`server-everything exited with ${String(code)}: ${text}`)));
  });
  url = `http://127.0.0.1:${port}/mcp`;
});
afterAll(() => {
  child?.kill('SIGKILL');
});

test('an HTTP server is listed at collection and fuzzed over Streamable HTTP (no findings on echo and get-sum)', async () => {
  const server = new HTTPServer({ name: 'everything-http', url });
  const listing = listToolsSync(server);
  if (!('tools' in listing)) throw new Error(listing.error);
  const chosen = listing.tools.filter((tool) => tool.name === 'echo' || tool.name === 'get-sum');
  expect(chosen.map((tool) => tool.name)).toEqual(['echo', 'get-sum']);
  const kit = new MCPTestKit({ recordChecks: true });
  try {
    const reports = await fuzzTools(kit, server, chosen, { runs: 15, seed: THIRD_PARTY_SEED });
    expect(findings(reports)).toEqual([]);
    expect(reports.map((r) => [r.tool, r.valid.runs, r.invalid?.runs])).toEqual([
      ['echo', 15, 15],
      ['get-sum', 15, 15],
    ]);
  } finally {
    await kit.close();
  }
});
