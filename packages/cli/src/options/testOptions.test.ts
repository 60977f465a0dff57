import { parseHarness } from './parseHarness';
import { validateTestOptions, type RawTestOptions } from './testOptions';

const cwd = '/project';
const raw = (overrides: Partial<RawTestOptions> = {}): RawTestOptions => ({ serverTokens: [], ...overrides });

describe('validateTestOptions', () => {
  test('defaults', () => {
    expect(validateTestOptions(raw(), cwd)).toEqual({
      resultsDb: '/project/.m3/executions.sqlite',
      runId: null,
      trials: null,
      protocols: [],
      harness: [],
      servers: [],
      envFile: null,
      executionTimeoutMs: null,
      baseline: null,
      json: false,
      judgeMaxRequests: null,
      ui: null,
      gates: { source: 'command line', minPassRate: [], failOnRegression: null, alpha: null, baseline: null },
      seed: null,
      cassettes: { mode: null, update: false, ci: false },
    });
  });

  test('--seed takes the whole number a fuzz failure printed (contract §25)', () => {
    expect(validateTestOptions(raw({ seed: '-1788457163' }), cwd).seed).toBe(-1788457163);
    expect(validateTestOptions(raw({ seed: '42' }), cwd).seed).toBe(42);
    for (const bad of ['1.5', 'abc', '', '4294967296']) {
      expect(() => validateTestOptions(raw({ seed: bad }), cwd)).toThrow(
        /--seed.*must be the whole number a fuzz failure printed/,
      );
    }
  });

  test('gate flags become the command-line gate source', () => {
    expect(
      validateTestOptions(raw({ minPassRate: ['0.8', 'judge.v1=0.9'], failOnRegression: true, alpha: '0.01' }), cwd)
        .gates,
    ).toEqual({
      source: 'command line',
      minPassRate: [
        { evaluator: null, rate: 0.8, source: 'command line' },
        { evaluator: 'judge.v1', rate: 0.9, source: 'command line' },
      ],
      failOnRegression: true,
      alpha: 0.01,
      baseline: null,
    });
    expect(() => validateTestOptions(raw({ minPassRate: ['1.5'] }), cwd)).toThrow(/--min-pass-rate/);
    expect(() => validateTestOptions(raw({ alpha: 'often' }), cwd)).toThrow(/--alpha/);
  });

  test('resolves paths against cwd and converts units', () => {
    const options = validateTestOptions(
      raw({
        resultsDb: 'out/db.sqlite',
        envFile: '/abs/.env',
        trials: '3',
        protocol: ['2026-07-28', '2025-11-25'],
        executionTimeout: '1.5',
        runId: 'run-ci-42',
        baseline: 'latest',
        json: true,
      }),
      cwd,
    );
    expect(options).toMatchObject({
      resultsDb: '/project/out/db.sqlite',
      envFile: '/abs/.env',
      trials: 3,
      protocols: ['2026-07-28', '2025-11-25'],
      executionTimeoutMs: 1500,
      runId: 'run-ci-42',
      baseline: 'latest',
      json: true,
    });
  });

  test.each<[Partial<RawTestOptions>, string]>([
    [{ trials: '0' }, '--trials: must be a positive whole number, not "0"'],
    [{ trials: '1.5' }, '--trials: must be a positive whole number'],
    [{ trials: 'two' }, '--trials: must be a positive whole number'],
    [{ protocol: ['2026'] }, '--protocol: "2026" is not a revision the kit can pin; use one of 2026-07-28, 2025-11-25'],
    [{ protocol: ['2025-11-25', '2025-11-25'] }, '--protocol: names a revision twice'],
    [{ executionTimeout: '-1' }, '--execution-timeout: must be a positive number of seconds'],
    [{ executionTimeout: 'Infinity' }, '--execution-timeout: must be a positive number of seconds'],
    [{ executionTimeout: '' }, '--execution-timeout: must be a positive number of seconds'],
    [{ runId: '../escape' }, '--run-id: a run id uses only letters'],
    [{ baseline: 'run/../../x' }, '--baseline: a run id uses only letters'],
    [{ resultsDb: ' ' }, '--results-db: must not be empty'],
    [{ envFile: '' }, '--env-file: must not be empty'],
    [{ harness: ['gpt-4'] }, '--harness: expected KIND=MODEL'],
  ])('rejects %j naming the flag', (overrides, message) => {
    expect(() => validateTestOptions(raw(overrides), cwd)).toThrow(message);
  });
});

describe('parseHarness', () => {
  test('merges repeated kinds and splits models', () => {
    expect(parseHarness(['openai=gpt-4.1-mini,gpt-4.1', 'acp=fixture', 'openai=o4-mini'])).toEqual([
      { harness: 'openai', models: ['gpt-4.1-mini', 'gpt-4.1', 'o4-mini'] },
      { harness: 'acp', models: ['fixture'] },
    ]);
  });

  test.each([
    ['robot=x', '--harness: unknown harness kind "robot"; use one of acp, openai, claude_code, codex, opencode, pi'],
    ['openai=', '--harness: "openai" needs one or more comma-separated model names'],
    ['openai=a,,b', '--harness: "openai" needs one or more'],
  ])('rejects %p', (value, message) => {
    expect(() => parseHarness([value])).toThrow(message);
  });

  test('rejects a duplicate kind/model pair', () => {
    expect(() => parseHarness(['acp=fixture', 'acp=fixture'])).toThrow('--harness: acp=fixture is selected twice');
  });
});
