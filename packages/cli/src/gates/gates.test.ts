import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BaselineComparison, EvaluatorStats } from '../summary/RunSummary';
import { evaluateGates } from './evaluateGates';
import { noGateConfig, type GateConfig } from './GateSettings';
import { parseAlpha, parseMinPassRate } from './parseGateValues';
import { parseGateConfig, readGateConfig } from './readGateConfig';
import { readJestConfig } from '../jest/readJestConfig.testkit';
import { resolveGates } from './resolveGates';

const zero = { passed: 0, failed: 0, inconclusive: 0, error: 0, not_run: 0 };
const stats = (evaluator: string, passed: number, expected: number): EvaluatorStats => ({
  evaluator,
  passRate: expected === 0 ? null : passed / expected,
  interval: null,
  passed,
  expected,
  evaluationCount: expected,
  missingRequired: 0,
  pendingRequired: 0,
  statusCounts: { ...zero, passed, failed: expected - passed },
  averageScore: null,
});
const cli = (config: Partial<GateConfig>): GateConfig => ({ ...noGateConfig('command line'), ...config });

describe('parseMinPassRate', () => {
  test('RATE applies to every evaluator, EVALUATOR=RATE to one (the last = splits)', () => {
    expect(parseMinPassRate('--min-pass-rate', '0.8', 'command line')).toEqual({
      evaluator: null,
      rate: 0.8,
      source: 'command line',
    });
    expect(parseMinPassRate('--min-pass-rate', 'a=b.v1=1', 'command line')).toMatchObject({
      evaluator: 'a=b.v1',
      rate: 1,
    });
  });

  test('refuses rates outside 0..1 and a missing evaluator, saying what a good value is', () => {
    expect(() => parseMinPassRate('--min-pass-rate', '80', 'command line')).toThrow(
      '--min-pass-rate: a pass rate is a number from 0 to 1 (0.8 means 80%), not "80"',
    );
    expect(() => parseMinPassRate('--min-pass-rate', '=0.5', 'command line')).toThrow(/names no evaluator/);
    expect(() => parseAlpha('--alpha', '0')).toThrow(/between 0 and 1/);
    expect(parseAlpha('--alpha', '0.01')).toBe(0.01);
  });
});

describe('resolveGates', () => {
  test('the command line wins over the jest config, which wins over package.json, per evaluator', () => {
    const settings = resolveGates(
      cli({ minPassRate: [{ evaluator: null, rate: 0.9, source: 'command line' }] }),
      {
        ...noGateConfig('jest config'),
        minPassRate: [
          { evaluator: null, rate: 0.5, source: 'jest config' },
          { evaluator: 'judge.v1', rate: 0.6, source: 'jest config' },
        ],
        alpha: 0.01,
      },
      { ...noGateConfig('package.json'), failOnRegression: true, alpha: 0.1, baseline: 'latest' },
    );
    expect(settings).toEqual({
      minPassRate: [
        { evaluator: null, rate: 0.9, source: 'command line' },
        { evaluator: 'judge.v1', rate: 0.6, source: 'jest config' },
      ],
      failOnRegression: { value: true, source: 'package.json' },
      alpha: { value: 0.01, source: 'jest config' },
      baseline: { value: 'latest', source: 'package.json' },
      surfaceThreshold: null,
    });
  });
});

describe('readGateConfig', () => {
  let folder: string;
  beforeEach(() => (folder = mkdtempSync(join(tmpdir(), 'm3-gates-'))));
  afterEach(() => rmSync(folder, { recursive: true, force: true }));

  test('reads testEnvironmentOptions.m3 of jest.config.js and the m3 section of package.json', async () => {
    writeFileSync(
      join(folder, 'jest.config.js'),
      'module.exports = { testEnvironmentOptions: { m3: { resultsDb: "x.sqlite", minPassRate: { "*": 0.7, "judge.v1": 0.9 } } } };',
    );
    writeFileSync(
      join(folder, 'package.json'),
      JSON.stringify({ m3: { failOnRegression: true, minPassRate: ['0.5'] } }),
    );
    const { jestConfig, packageJson } = readGateConfig(folder, await readJestConfig(folder));
    expect(jestConfig.minPassRate).toEqual([
      { evaluator: null, rate: 0.7, source: 'jest config' },
      { evaluator: 'judge.v1', rate: 0.9, source: 'jest config' },
    ]);
    expect(packageJson).toMatchObject({ failOnRegression: true, minPassRate: [{ evaluator: null, rate: 0.5 }] });
  });

  test('reads the "jest" key of package.json when there is no config file; nothing set is nothing', async () => {
    writeFileSync(
      join(folder, 'package.json'),
      JSON.stringify({ jest: { testEnvironmentOptions: { m3: { alpha: 0.01 } } } }),
    );
    expect(readGateConfig(folder, await readJestConfig(folder)).jestConfig.alpha).toBe(0.01);
    rmSync(join(folder, 'package.json'));
    expect(readGateConfig(folder, await readJestConfig(folder))).toEqual({
      jestConfig: noGateConfig('jest config'),
      packageJson: noGateConfig('package.json'),
    });
  });

  test('a bad value names the file and key', async () => {
    expect(() => parseGateConfig({ minPassRate: 2 }, 'package.json "m3"', 'package.json')).toThrow(
      'package.json "m3".minPassRate: a pass rate is a number from 0 to 1',
    );
    expect(() => parseGateConfig({ failOnRegression: 'yes' }, 'package.json "m3"', 'package.json')).toThrow(
      'package.json "m3".failOnRegression: must be true or false',
    );
    expect(() =>
      parseGateConfig({ surfaceThreshold: { global: { tool: 80 } } }, 'package.json "m3"', 'package.json'),
    ).toThrow(
      'package.json "m3".surfaceThreshold.global.tool: is not a surface measure: use one of tools, toolsSucceeded',
    );
    expect(() =>
      parseGateConfig(
        { surfaceThreshold: { shipping: { tools: 180 } } },
        'jest.config.js testEnvironmentOptions.m3',
        'jest config',
      ),
    ).toThrow(
      'jest.config.js testEnvironmentOptions.m3.surfaceThreshold.shipping.tools: must be a percentage from 0 to 100, got 180',
    );
  });

  test('surfaceThreshold comes whole from the Jest config, else from package.json (contract §25)', async () => {
    writeFileSync(
      join(folder, 'jest.config.js'),
      'module.exports = { testEnvironmentOptions: { m3: { surfaceThreshold: { shipping: { tools: 90 } } } } };',
    );
    writeFileSync(
      join(folder, 'package.json'),
      JSON.stringify({ m3: { surfaceThreshold: { global: { tools: 50 } } } }),
    );
    const { jestConfig, packageJson } = readGateConfig(folder, await readJestConfig(folder));
    expect(resolveGates(jestConfig, packageJson).surfaceThreshold).toEqual({
      value: { shipping: { tools: 90 } },
      source: 'jest config',
    });
    expect(resolveGates(packageJson).surfaceThreshold).toEqual({
      value: { global: { tools: 50 } },
      source: 'package.json',
    });
  });
});

describe('evaluateGates', () => {
  const settings = (gates: Partial<ReturnType<typeof resolveGates>>) => ({ ...resolveGates(cli({})), ...gates });

  test('every evaluator with something expected is held to the shared rate; a named gate replaces it', () => {
    const results = evaluateGates(
      settings({
        minPassRate: [
          { evaluator: null, rate: 0.8, source: 'command line' },
          { evaluator: 'judge.v1', rate: 0.5, source: 'jest config' },
        ],
      }),
      [stats('tool.v1', 7, 10), stats('judge.v1', 6, 10), stats('empty.v1', 0, 0)],
      null,
      null,
    );
    expect(results.map((r) => [r.evaluator, r.threshold, r.passed])).toEqual([
      ['judge.v1', 0.5, true],
      ['tool.v1', 0.8, false],
    ]);
    expect(results[1]!.gap).toBeCloseTo(0.1, 12);
    expect(results[1]!.message).toBe('min pass rate tool.v1 ≥ 80.0%: 70.0% (7/10) is 10.0 pts below');
  });

  test('a rate equal to its threshold passes; a named evaluator the run never recorded fails', () => {
    const results = evaluateGates(
      settings({
        minPassRate: [
          { evaluator: null, rate: 0.8, source: 'command line' },
          { evaluator: 'renamed.v1', rate: 0.8, source: 'command line' },
        ],
      }),
      [stats('tool.v1', 8, 10)],
      null,
      null,
    );
    expect(results.map((r) => [r.evaluator, r.passed])).toEqual([
      ['renamed.v1', false],
      ['tool.v1', true],
    ]);
    expect(results[0]!.message).toMatch(/renamed.v1 recorded no evaluations in this run/);
  });

  test('failOnRegression fails on a significant drop only, naming it and by how much', () => {
    const drop = { evaluator: 'noisy.v1', scope: 'evaluator', delta: -0.6, pValue: 0.0108 };
    const comparison = (regressions: unknown[], dropsWithinNoise: number) =>
      ({ baselineRunId: 'run-base', alpha: 0.05, regressions, dropsWithinNoise }) as unknown as BaselineComparison;
    const gate = settings({ failOnRegression: { value: true, source: 'command line' } });
    const noisy = evaluateGates(gate, [], comparison([], 2), null);
    expect(noisy).toEqual([
      expect.objectContaining({
        kind: 'no_regression',
        passed: true,
        regressions: 0,
        message: 'no regression against run-base: no significant drop (p < 0.05); 2 drop(s) within noise',
      }),
    ]);
    const [failed] = evaluateGates(gate, [], comparison([drop], 0), null);
    expect(failed).toMatchObject({ passed: false, regressions: 1 });
    expect(failed!.message).toBe(
      'no regression against run-base: 1 significant drop(s) (p < 0.05): noisy.v1 60.0 pts down (p = 0.011)',
    );
    expect(evaluateGates(gate, [], null, 'no earlier run to compare with')[0]).toMatchObject({ passed: true });
  });
});
