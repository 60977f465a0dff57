import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jestConfigArgument } from '../gates/jestConfigArgument';
import { readGateConfig } from '../gates/readGateConfig';
import { readJestConfig } from './readJestConfig.testkit';
import { startJest } from './spawnJest';

const GATES = '{ testEnvironmentOptions: { m3: { minPassRate: 0.8, failOnRegression: true, baseline: "latest" } } }';
const expected = (file: string) => ({
  status: 'loaded',
  file,
  m3: { minPassRate: 0.8, failOnRegression: true, baseline: 'latest' },
});

describe('the Jest process of m3 test reads every config format Jest reads, through its own jest-config', () => {
  let folder: string;
  beforeEach(() => (folder = mkdtempSync(join(tmpdir(), 'm3-jest-config-'))));
  afterEach(() => rmSync(folder, { recursive: true, force: true }));
  const write = (name: string, text: string) => writeFileSync(join(folder, name), text);

  test.each([
    ['jest.config.mjs', `export default ${GATES};`],
    ['jest.config.cjs', `module.exports = ${GATES};`],
    ['jest.config.js', `module.exports = async () => (${GATES});`],
    ['jest.config.json', `// Jest strips comments in JSON configs\n${JSON.stringify(eval(`(${GATES})`))}`],
  ])('%s', async (name, text) => {
    write(name, text);
    expect(await readJestConfig(folder, process.env, null)).toEqual(expected(name));
  });

  test('an ES module jest.config.js of a "type": "module" package (require() alone cannot load it)', async () => {
    write('package.json', JSON.stringify({ type: 'module' }));
    write('jest.config.js', `const gates = ${GATES};\nexport default gates;`);
    expect(await readJestConfig(folder, process.env, null)).toEqual(expected('jest.config.js'));
  });

  test('the config sees the environment it is given, and what it prints does not disturb the answer', async () => {
    write(
      'jest.config.cjs',
      'console.log("{not json"); process.stdout.write("noise");\n' +
        'module.exports = { testEnvironmentOptions: { m3: { minPassRate: Number(process.env.GATE_RATE) } } };',
    );
    expect(await readJestConfig(folder, { ...process.env, GATE_RATE: '0.6' }, null)).toEqual({
      status: 'loaded',
      file: 'jest.config.cjs',
      m3: { minPassRate: 0.6 },
    });
  });

  test('the "jest" key of package.json, in the project or (as Jest looks) a parent folder', async () => {
    write('package.json', JSON.stringify({ jest: eval(`(${GATES})`) }));
    expect(await readJestConfig(folder, process.env, null)).toEqual(expected('package.json "jest"'));
    mkdirSync(join(folder, 'sub'));
    expect(await readJestConfig(join(folder, 'sub'), process.env, null)).toEqual(expected('../package.json "jest"'));
  });

  test('--config names the file, relative to the project', async () => {
    write('jest.config.cjs', 'module.exports = {};');
    write('ci.jest.config.mjs', `export default ${GATES};`);
    const configArg = jestConfigArgument(['--ci', '--config', 'ci.jest.config.mjs'], folder);
    expect(configArg).toBe(join(folder, 'ci.jest.config.mjs'));
    expect(await readJestConfig(folder, process.env, configArg)).toEqual(expected('ci.jest.config.mjs'));
  });

  test('a TypeScript config is loaded as Jest loads it: Node type stripping, else a loader (none here: Jest fails too)', async () => {
    write('jest.config.ts', `const config: Record<string, unknown> = ${GATES};\nexport default config;`);
    const loaded = await readJestConfig(folder, process.env, null);
    if ((process.features as { typescript?: unknown }).typescript) {
      expect(loaded).toEqual(expected('jest.config.ts'));
    } else {
      // Node 20 without ts-node: Jest itself cannot read this file, so its gates are left to Jest's failure.
      expect(loaded).toMatchObject({
        status: 'failed',
        message: expect.stringContaining('Jest: Failed to parse the TypeScript config file'),
      });
    }
  });

  test('no config anywhere, two configs, or a config that throws: no gates from it, left to Jest', async () => {
    expect(await readJestConfig(folder, process.env, null)).toEqual({ status: 'none' });
    write('jest.config.js', 'module.exports = {};');
    write('jest.config.cjs', 'module.exports = {};');
    expect(await readJestConfig(folder, process.env, null)).toMatchObject({
      status: 'failed',
      message: expect.stringContaining('Multiple configurations found'),
    });
    rmSync(join(folder, 'jest.config.js'));
    write('jest.config.cjs', 'throw new Error("broken config");');
    expect(await readJestConfig(folder, process.env, null)).toEqual({ status: 'failed', message: 'broken config' });
  });

  test('readGateConfig holds the gates of a jest.config.mjs, naming the file in a bad value', async () => {
    write(
      'jest.config.mjs',
      'export default { testEnvironmentOptions: { m3: { minPassRate: { "judge.v1": 0.9 } } } };',
    );
    expect(readGateConfig(folder, await readJestConfig(folder)).jestConfig.minPassRate).toEqual([
      { evaluator: 'judge.v1', rate: 0.9, source: 'jest config' },
    ]);
    write('jest.config.mjs', 'export default { testEnvironmentOptions: { m3: { alpha: 2 } } };');
    const bad = await readJestConfig(folder);
    expect(() => readGateConfig(folder, bad)).toThrow('jest.config.mjs testEnvironmentOptions.m3.alpha');
  });
});

describe('the Jest process of m3 test, once the config is read', () => {
  let folder: string;
  beforeAll(() => {
    folder = mkdtempSync(join(tmpdir(), 'm3-jest-after-config-'));
    writeFileSync(join(folder, 'jest.config.js'), `module.exports = ${GATES};`);
    // The test leaves a file naming the arguments Jest was given, so the run is seen from outside.
    writeFileSync(
      join(folder, 'marker.test.js'),
      'test("leaves a marker", () => require("node:fs").writeFileSync(__dirname + "/ran.json", JSON.stringify(process.argv.slice(1))));',
    );
  });
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  const start = () =>
    startJest({
      cwd: folder,
      args: ['--ci', '--runInBand', 'marker'],
      env: process.env,
      stdoutToStderr: true,
      query: { folder, configArg: null },
    });

  test('told to stop, ends before Jest runs anything; told to run, runs Jest with its arguments', async () => {
    const stopped = start();
    expect(await stopped.config).toEqual(expected('jest.config.js'));
    expect(await stopped.stop()).toEqual({ code: 0, signal: null, received: null });
    expect(existsSync(join(folder, 'ran.json'))).toBe(false);

    const started = start();
    expect(await started.config).toEqual(expected('jest.config.js'));
    expect(await started.run()).toEqual({ code: 0, signal: null, received: null });
    const argv = JSON.parse(readFileSync(join(folder, 'ran.json'), 'utf8')) as string[];
    expect(argv[0]).toMatch(/jest[\\/]bin[\\/]jest\.js$/);
    expect(argv.slice(1)).toEqual(['--ci', '--runInBand', 'marker']);
  });
});
