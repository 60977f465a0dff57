// contract §25 on a server nobody here wrote: @modelcontextprotocol/server-everything over stdio.
// Its gzip tool fetches URLs: GZIP_ALLOWED_DOMAINS names a domain that cannot resolve, so no fuzzed
// input reaches the network. Findings are recorded verbatim in packages/core/docs/fuzzing.md.
import { MCPTestKit } from '../../kit/MCPTestKit';
import { StdioServer } from '../../servers/StdioServer';
import { findings, fuzzEveryTool, THIRD_PARTY_SEED } from './thirdParty.testkit';

jest.setTimeout(90_000);

let kit: MCPTestKit;
beforeAll(() => {
  kit = new MCPTestKit({ recordChecks: true });
});
afterAll(() => kit.close());

test('server-everything: only trigger-long-running-operation is found, hanging past the timeout on its defaults', async () => {
  const server = new StdioServer({
    name: 'everything',
    command: process.execPath,
    args: [require.resolve('@modelcontextprotocol/server-everything/dist/index.js'), 'stdio'],
    env: { GZIP_ALLOWED_DOMAINS: 'offline.invalid' },
  });
  const reports = await fuzzEveryTool(kit, server, { runs: 10, seed: THIRD_PARTY_SEED, timeoutMs: 2_000 });
  expect(reports.length).toBeGreaterThanOrEqual(12);
  // Its defaults (duration 10 s) outlast the 2 s timeout: {} is the minimal hanging input.
  const found = findings(reports);
  expect(found).toHaveLength(1);
  expect(found[0]!.split('\n')).toEqual([
    'fuzz: tool trigger-long-running-operation hung: no answer within the timeout on a valid input',
    '  problem: no answer within 2000 ms; the server was reaped and reconnected',
    '  minimal input: {}',
    expect.stringMatching(/^ {2}seed: 42 \(shrunk \d+ time\(s\)\)$/),
    '  reproduce: npx m3 test --seed 42   or   M3_FUZZ_SEED=42 npx jest',
    expect.stringMatching(/^ {2}fast-check path: [\d:]+$/),
  ]);
});
