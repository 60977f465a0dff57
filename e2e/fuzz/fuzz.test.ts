// End-to-end: describe.m3.fuzz (contract §25) through the real `m3` bin and the real Jest, on a
// stdio server with one planted fault per tool (zero config: listed at collection) and on an
// in-process server (describeM3.fuzz imported, one test for every tool). Each fault must be found,
// shrunk and printed with the seed that reproduces it; each tool records m3.fuzz.valid and m3.fuzz.invalid.
import { copyFixture, ensureBuilt, printedRunId, removeFixture, runM3Combined, withStore } from '../cli.testkit';

jest.setTimeout(180_000);

beforeAll(() => {
  ensureBuilt();
});

describe('describe.m3.fuzz on a server with planted faults', () => {
  let folder: string;
  beforeAll(() => {
    folder = copyFixture('fuzz-planted');
  });
  afterAll(() => removeFixture(folder));

  test('finds the crash, the hang, the broken output and the wrong error code, each shrunk, with the seed', async () => {
    const run = runM3Combined(['test', '--seed', '1', '--', '--verbose'], folder);
    const text = run.combined;
    expect(run.status).toBe(1);
    expect(text).toContain('✓ tool healthy');
    expect(text).toContain(
      '✓ every tool (in-process server: listed when the test runs; pass tools for a test per tool)',
    );
    for (const tool of ['crash', 'hang', 'bad_output', 'rpc_error']) expect(text).toContain(`✕ tool ${tool}`);

    expect(text).toContain('fuzz: tool crash crashed the server (the connection ended) on a valid input');
    expect(text).toMatch(/problem: .*exited with code 3.*planted crash: n=101/);
    expect(text).toContain('minimal input: {"n":101}');

    expect(text).toContain('fuzz: tool hang hung: no answer within the timeout on a valid input');
    expect(text).toContain('problem: no answer within 400 ms; the server was reaped and reconnected');
    expect(text).toContain('minimal input: {"mode":"slow","label":""}');

    expect(text).toContain(
      'fuzz: tool bad_output returned structuredContent that breaks its outputSchema on a valid input',
    );
    expect(text).toContain(
      'problem: tool JSON Schema validation failed: bad_output: invalid_result: /total must be number (type)',
    );
    expect(text).toContain('minimal input: {"qty":501}');

    expect(text).toContain('fuzz: tool rpc_error was answered with a JSON-RPC error on an invalid input');
    expect(text).toMatch(/problem: JSON-RPC error -32603 instead of isError: true or -32602/);

    // Every failure names its seed and both ways to replay it.
    // Only the planted server's failures print a seed: the in-process calculator passes.
    const seeds = text.match(/ {2}seed: 1 \(shrunk \d+ time\(s\)\)/g) ?? [];
    expect(seeds).toHaveLength(4);
    expect(text.match(/fast-check path: [\d:]+/g) ?? []).toHaveLength(4);
    expect(text).toContain('reproduce: npx m3 test --seed 1   or   M3_FUZZ_SEED=1 npx jest tests/planted.test.js');

    const runId = printedRunId(text.slice(text.indexOf('m3 run run-')));
    const evaluations = await withStore(folder, (store) => store.listEvaluations({ runId }));
    const verdicts = evaluations.map((e) => `${String(e.metadata.tool)} ${e.evaluator} ${e.status}`).sort();
    expect(verdicts).toEqual([
      'add m3.fuzz.invalid passed',
      'add m3.fuzz.valid passed',
      'bad_output m3.fuzz.invalid passed',
      'bad_output m3.fuzz.valid failed',
      'crash m3.fuzz.invalid passed',
      'crash m3.fuzz.valid failed',
      'hang m3.fuzz.invalid passed',
      'hang m3.fuzz.valid failed',
      'healthy m3.fuzz.invalid passed',
      'healthy m3.fuzz.valid passed',
      'rpc_error m3.fuzz.invalid failed',
      'rpc_error m3.fuzz.valid passed',
      'shout m3.fuzz.invalid passed',
      'shout m3.fuzz.valid passed',
    ]);
  });
});
