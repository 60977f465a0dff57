import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { MCPTestKit } from '../../kit/MCPTestKit';
import { InProcessServer } from '../../servers/InProcessServer';
import { StdioServer } from '../../servers/StdioServer';
import { createPlantedFaultsServer } from './__fixtures__/plantedFaults';
import { fuzzSeed, fuzzTool, type FuzzableTool } from './fuzzTool';

// The planted-faults server: over stdio where the fault is the process's (a crash, a hang that
// needs reaping), in process for the faults of an answer (bad output, a JSON-RPC error, seeds).
const PLANTED = join(__dirname, '__fixtures__', 'planted-faults-server.js');

// Shrinking a crash restarts the server once per step that still crashes: slow on a loaded machine.
jest.setTimeout(120_000);

let kit: MCPTestKit;
let pidDir: string;
let planted: StdioServer;
/** The same server in process: no process to start for a case whose fault is in an answer. */
const plantedInProcess = new InProcessServer({
  name: 'planted',
  factory: () =>
    createPlantedFaultsServer({
      crash: (message) =>
        Promise.reject(new Error(`the in-process planted server has no process to crash (${message})`)),
    }),
});
let tools: Map<string, FuzzableTool>;

beforeAll(async () => {
  pidDir = mkdtempSync(join(tmpdir(), 'm3-fuzz-pids-'));
  planted = new StdioServer({
    name: 'planted',
    command: process.execPath,
    args: [PLANTED],
    env: { PLANTED_PID_DIR: pidDir },
  });
  const lister = new MCPTestKit();
  const client = await lister.direct(plantedInProcess).connect();
  tools = new Map((await client.listAllTools()).map((tool) => [tool.name, tool]));
  await lister.close();
});
beforeEach(() => {
  kit = new MCPTestKit({ recordChecks: true });
  for (const pid of readdirSync(pidDir)) rmSync(join(pidDir, pid));
});
afterEach(() => kit.close());
afterAll(() => rmSync(pidDir, { recursive: true, force: true }));

/** Pids of planted-server processes started since the test began that are still alive. */
function livePlantedPids(): number[] {
  return readdirSync(pidDir)
    .map(Number)
    .filter((pid) => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    });
}

function addServer(): InProcessServer {
  return new InProcessServer({
    name: 'calculator',
    factory: () => {
      const server = new McpServer({ name: 'calculator', version: '1.0.0' });
      server.registerTool(
        'add',
        {
          inputSchema: { a: z.number(), b: z.number().int().min(0).max(10) },
          outputSchema: { sum: z.number() },
        },
        ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }], structuredContent: { sum: a + b } }),
      );
      return server;
    },
  });
}

describe('fuzzTool (contract §25)', () => {
  test('a correct in-process tool passes both properties and records m3.fuzz.valid and m3.fuzz.invalid', async () => {
    const server = addServer();
    const client = await kit.direct(server).connect();
    const [add] = await client.listAllTools();
    await client.close();
    const report = await fuzzTool(kit, server, add!, { runs: 40, seed: 11 });
    expect(report).toMatchObject({
      tool: 'add',
      server: 'calculator',
      seed: 11,
      valid: { runs: 40, failure: null },
      invalid: { runs: 40, failure: null },
      reconnects: 0,
    });
    expect(kit.evaluationResults().map((e) => [e.evaluator, e.status, e.metadata])).toEqual([
      ['m3.fuzz.valid', 'passed', { tool: 'add', server: 'calculator', seed: 11, runs: 40, skipped: 0 }],
      ['m3.fuzz.invalid', 'passed', { tool: 'add', server: 'calculator', seed: 11, runs: 40, skipped: 0 }],
    ]);
  });

  test('invalid: false sends only valid inputs', async () => {
    const report = await fuzzTool(kit, plantedInProcess, tools.get('healthy')!, { runs: 5, seed: 1, invalid: false });
    expect(report.invalid).toBeNull();
    expect(kit.evaluationResults().map((e) => e.evaluator)).toEqual(['m3.fuzz.valid']);
  });

  test('a crash is shrunk to the smallest crashing input, and every crashed server is reaped', async () => {
    const report = await fuzzTool(kit, planted, tools.get('crash')!, { runs: 30, seed: 1 });
    expect(report.valid.failure).toMatchObject({ kind: 'crash', input: { n: 101 }, seed: 1 });
    expect(report.valid.failure!.problem).toMatch(/exited with code 3.*planted crash: n=101/);
    expect(report.invalid?.failure).toBeNull();
    expect(report.reconnects).toBeGreaterThan(0);
    expect(readdirSync(pidDir).length).toBe(report.reconnects + 1);
    expect(livePlantedPids()).toEqual([]);
    const valid = kit.evaluationResults().find((e) => e.evaluator === 'm3.fuzz.valid')!;
    expect(valid.status).toBe('failed');
    expect(valid.rationale).toContain('minimal input: {"n":101}');
  });

  test('a hang past timeoutMs fails, is reaped, and the next input gets a fresh connection', async () => {
    const report = await fuzzTool(kit, planted, tools.get('hang')!, { runs: 20, seed: 1, timeoutMs: 300 });
    expect(report.valid.failure).toMatchObject({ kind: 'hang', input: { mode: 'slow', label: '' } });
    expect(report.valid.failure!.problem).toBe('no answer within 300 ms; the server was reaped and reconnected');
    // Each hang closed its connection (reaping the server); the next input started a fresh one.
    expect(report.reconnects).toBeGreaterThan(0);
    expect(readdirSync(pidDir).length).toBe(report.reconnects + 1);
    // The invalid inputs ran after the hangs, over a fresh connection, and passed.
    expect(report.invalid).toMatchObject({ runs: 20, failure: null });
    expect(livePlantedPids()).toEqual([]);
  });

  test('structuredContent that breaks the outputSchema fails the valid property', async () => {
    const report = await fuzzTool(kit, plantedInProcess, tools.get('bad_output')!, { runs: 30, seed: 5 });
    expect(report.valid.failure).toMatchObject({
      kind: 'invalid_output',
      input: { qty: 501 },
      problem: 'tool JSON Schema validation failed: bad_output: invalid_result: /total must be number (type)',
    });
  });

  test('bad input answered with a JSON-RPC error other than -32602 fails the invalid property', async () => {
    const report = await fuzzTool(kit, plantedInProcess, tools.get('rpc_error')!, { runs: 30, seed: 5 });
    expect(report.valid.failure).toBeNull();
    expect(report.invalid?.failure?.kind).toBe('protocol_error');
    expect(report.invalid?.failure?.problem).toMatch(/^JSON-RPC error -32603 instead of isError: true or -32602/);
  });

  test('the same seed finds the same minimal input by the same path', async () => {
    const first = await fuzzTool(kit, plantedInProcess, tools.get('bad_output')!, { runs: 30, seed: 77 });
    const second = await fuzzTool(kit, plantedInProcess, tools.get('bad_output')!, { runs: 30, seed: 77 });
    expect(second.valid.failure).toEqual(first.valid.failure);
  });

  test('a server that cannot start is reported as connect_failed, not blamed on an input', async () => {
    const missing = new StdioServer({ name: 'missing', command: join(pidDir, 'no-such-binary') });
    const report = await fuzzTool(kit, missing, tools.get('healthy')!, { runs: 10, seed: 1 });
    expect(report.valid.failure?.kind).toBe('connect_failed');
    expect(report.valid.failure?.problem).toMatch(/could not start|not found|ENOENT/i);
  });
});

describe('fuzzSeed', () => {
  test('an explicit seed wins over M3_FUZZ_SEED, which wins over a fresh one', () => {
    expect(fuzzSeed(5, { M3_FUZZ_SEED: '9' })).toBe(5);
    expect(fuzzSeed(undefined, { M3_FUZZ_SEED: '-9' })).toBe(-9);
    expect(Number.isInteger(fuzzSeed(undefined, {}))).toBe(true);
  });

  test('a seed that is not a whole number is refused with the fix', () => {
    expect(() => fuzzSeed(undefined, { M3_FUZZ_SEED: 'abc' })).toThrow(
      'fuzz M3_FUZZ_SEED must be a whole number (the seed a failure printed), not NaN',
    );
  });
});
