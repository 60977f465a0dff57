// contract §25 on a server nobody here wrote: @modelcontextprotocol/server-filesystem over stdio,
// sandboxed: its only allowed root (and working directory) is a fresh temp folder. Findings are
// recorded verbatim in packages/core/docs/fuzzing.md.
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MCPTestKit } from '../../kit/MCPTestKit';
import { StdioServer } from '../../servers/StdioServer';
import { findings, fuzzEveryTool, THIRD_PARTY_SEED } from './thirdParty.testkit';

jest.setTimeout(90_000);

let outer: string;
let sandbox: string;
let kit: MCPTestKit;
beforeAll(() => {
  outer = mkdtempSync(join(tmpdir(), 'm3-fuzz-filesystem-'));
  sandbox = join(outer, 'allowed');
  mkdirSync(sandbox);
  kit = new MCPTestKit({ recordChecks: true });
});
afterAll(async () => {
  await kit.close();
  rmSync(outer, { recursive: true, force: true });
});

test('server-filesystem: every tool answers valid inputs and refuses invalid ones, inside its sandbox (no findings)', async () => {
  const server = new StdioServer({
    name: 'filesystem',
    command: process.execPath,
    args: [require.resolve('@modelcontextprotocol/server-filesystem/dist/index.js'), sandbox],
    cwd: sandbox,
  });
  const reports = await fuzzEveryTool(kit, server, { runs: 10, seed: THIRD_PARTY_SEED });
  expect(reports).toHaveLength(14);
  expect(findings(reports)).toEqual([]);
  // Fuzzed writes landed in the allowed root only: nothing appeared beside it.
  expect(readdirSync(sandbox).length).toBeGreaterThan(0);
  expect(readdirSync(outer)).toEqual(['allowed']);
});
