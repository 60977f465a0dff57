// contract §25 on a server nobody here wrote: @modelcontextprotocol/server-memory over stdio, its
// knowledge-graph file in a temp folder. Findings are recorded verbatim in packages/core/docs/fuzzing.md.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MCPTestKit } from '../../kit/MCPTestKit';
import { StdioServer } from '../../servers/StdioServer';
import { findings, fuzzEveryTool, THIRD_PARTY_SEED } from './thirdParty.testkit';

jest.setTimeout(60_000);

let folder: string;
let kit: MCPTestKit;
beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'm3-fuzz-memory-'));
  kit = new MCPTestKit({ recordChecks: true });
});
afterAll(async () => {
  await kit.close();
  rmSync(folder, { recursive: true, force: true });
});

test('server-memory: every tool answers valid inputs and refuses invalid ones (no findings)', async () => {
  const server = new StdioServer({
    name: 'memory',
    command: process.execPath,
    args: [require.resolve('@modelcontextprotocol/server-memory/dist/index.js')],
    env: { MEMORY_FILE_PATH: join(folder, 'memory.jsonl') },
    cwd: folder,
  });
  const reports = await fuzzEveryTool(kit, server, { runs: 15, seed: THIRD_PARTY_SEED });
  expect(reports.map((r) => r.tool)).toEqual([
    'create_entities',
    'create_relations',
    'add_observations',
    'delete_entities',
    'delete_observations',
    'delete_relations',
    'read_graph',
    'search_nodes',
    'open_nodes',
  ]);
  expect(findings(reports)).toEqual([]);
  expect(reports.every((r) => r.valid.runs === 15)).toBe(true);
  // The fuzzed entities went to the temp graph file, nowhere else.
  expect(readdirSync(folder)).toEqual(['memory.jsonl']);
  const verdicts = kit.evaluationResults().map((e) => e.evaluator);
  expect(verdicts.filter((e) => e === 'm3.fuzz.valid')).toHaveLength(9);
  expect(verdicts.filter((e) => e === 'm3.fuzz.invalid')).toHaveLength(9);
});
