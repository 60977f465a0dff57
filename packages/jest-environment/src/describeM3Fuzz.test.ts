import { join } from 'node:path';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { fuzzTools, InProcessServer, MCPTestKit, ModelValidationError, StdioServer } from '@sf-m3/core';
import { fuzzFailureMessage, fuzzSeed, listToolsSync } from '@sf-m3/core/internal';
import { z } from 'zod';
import { createDescribeM3Fuzz, validateFuzzOptions } from './describeM3Fuzz';
import type { DescribeM3Function } from './runtimeBridge';
import type { JestTestLike } from './testM3';

const PLANTED = join(__dirname, '../../core/src/surface/fuzz/__fixtures__/planted-faults-server.js');
const planted = new StdioServer({ name: 'planted', command: process.execPath, args: [PLANTED] });

jest.setTimeout(60_000);

/** `describe.m3.fuzz` over a recording `describe.m3` and `test`, with the real fuzzer and a real kit. */
function harness() {
  const suites: string[] = [];
  const tests = new Map<string, { fn: () => unknown; timeout: number | undefined }>();
  const test = ((name: string, fn: () => unknown, timeout?: number) => {
    tests.set(name, { fn, timeout });
  }) as JestTestLike;
  let kit: MCPTestKit | undefined;
  const fuzz = createDescribeM3Fuzz({
    // Only the (name, fn) form is used by describe.m3.fuzz.
    describeM3: ((name: string, fn: () => void) => {
      suites.push(name);
      fn();
    }) as DescribeM3Function,
    test,
    fuzz: () => ({ fuzzFailureMessage, fuzzSeed, fuzzTools, listToolsSync }),
    currentKit: () => kit,
    testPath: 'tests/fuzz.test.js',
  });
  /** Runs one registered test with a fresh kit, the way the environment gives each test its own. */
  const run = async (name: string): Promise<void> => {
    const registered = tests.get(name);
    if (registered === undefined) throw new Error(`no test ${name}; registered: ${[...tests.keys()].join(', ')}`);
    kit = new MCPTestKit({ recordChecks: true });
    try {
      await registered.fn();
    } finally {
      await kit.close();
    }
  };
  return { fuzz, suites, tests, run };
}

function calculator(): InProcessServer {
  return new InProcessServer({
    name: 'calculator',
    factory: () => {
      const server = new McpServer({ name: 'calculator', version: '1.0.0' });
      server.registerTool('add', { inputSchema: { a: z.number(), b: z.number() } }, ({ a, b }) => ({
        content: [{ type: 'text', text: String(a + b) }],
      }));
      server.registerTool('upper', { inputSchema: { text: z.string().max(10) } }, ({ text }) => ({
        content: [{ type: 'text', text: text.toUpperCase() }],
      }));
      return server;
    },
  });
}

describe('describe.m3.fuzz (contract §25)', () => {
  test('a stdio server with zero config: tools listed at collection, one suite, one test per tool', async () => {
    const { fuzz, suites, tests, run } = harness();
    fuzz(planted, { runs: 20, seed: 3, timeoutMs: 400 });
    expect(suites).toEqual(['fuzz planted']);
    expect([...tests.keys()]).toEqual(['tool healthy', 'tool crash', 'tool hang', 'tool bad_output', 'tool rpc_error']);
    // A Jest timeout far above the per-call limits, so the fuzzer's own timeout is what reports a hang.
    expect(tests.get('tool hang')!.timeout).toBe(400 * (20 * 2 + 50));
    await expect(run('tool healthy')).resolves.toBeUndefined();
    const failure = run('tool bad_output');
    await expect(failure).rejects.toThrow(
      'fuzz: tool bad_output returned structuredContent that breaks its outputSchema on a valid input',
    );
    await expect(failure).rejects.toThrow('minimal input: {"qty":501}');
    await expect(failure).rejects.toThrow(
      'reproduce: npx m3 test --seed 3   or   M3_FUZZ_SEED=3 npx jest tests/fuzz.test.js',
    );
  });

  test('an in-process server without tools gets one test that fuzzes every tool', async () => {
    const { fuzz, tests, run } = harness();
    fuzz(calculator(), { runs: 10, seed: 1 });
    const [name] = [...tests.keys()];
    expect([...tests.keys()]).toEqual([
      'every tool (in-process server: listed when the test runs; pass tools for a test per tool)',
    ]);
    await expect(run(name!)).resolves.toBeUndefined();
  });

  test('with tools, an in-process server gets a test per named tool; an unknown name fails naming the real ones', async () => {
    const { fuzz, tests, run } = harness();
    fuzz(calculator(), { tools: ['upper', 'missing'], runs: 10, seed: 1 });
    expect([...tests.keys()]).toEqual(['tool upper', 'tool missing']);
    await expect(run('tool upper')).resolves.toBeUndefined();
    await expect(run('tool missing')).rejects.toThrow(
      'describe.m3.fuzz: server calculator has no tool missing; it lists add, upper',
    );
  });

  test('a server that cannot be listed gets one failing test that says how to fix it', async () => {
    const { fuzz, tests, run } = harness();
    fuzz(new StdioServer({ name: 'broken', command: join(__dirname, 'no-such-server') }));
    expect([...tests.keys()]).toEqual(['lists the tools to fuzz']);
    await expect(run('lists the tools to fuzz')).rejects.toThrow(
      /^describe\.m3\.fuzz could not list the tools of server broken: /,
    );
  });

  test('options are checked: unknown keys, runs, timeoutMs, seed, invalid, tools', () => {
    expect(() => validateFuzzOptions('s', { run: 5 })).toThrow(
      'describe.m3.fuzz(s, options): unknown option run; use tools, runs, seed, invalid or timeoutMs',
    );
    expect(() => validateFuzzOptions('s', { runs: 0 })).toThrow('runs must be a positive whole number');
    expect(() => validateFuzzOptions('s', { timeoutMs: 1.5 })).toThrow('timeoutMs must be a positive whole number');
    expect(() => validateFuzzOptions('s', { seed: 1.5 })).toThrow('seed must be a whole number');
    expect(() => validateFuzzOptions('s', { invalid: 'no' })).toThrow('invalid must be true or false');
    expect(() => validateFuzzOptions('s', { tools: [] })).toThrow('tools must be a non-empty list of tool names');
    expect(validateFuzzOptions('s', { tools: ['a'], runs: 5, seed: -3, invalid: false, timeoutMs: 100 })).toEqual({
      tools: ['a'],
      runs: 5,
      seed: -3,
      invalid: false,
      timeoutMs: 100,
    });
    const { fuzz } = harness();
    expect(() => fuzz({} as never)).toThrow(ModelValidationError);
  });
});
