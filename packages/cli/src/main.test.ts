import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CliIO } from './CliIO';
import { main, splitPassthrough } from './main';

function captureIO(cwd: string): CliIO & { out: string; err: string } {
  const io = {
    out: '',
    err: '',
    cwd,
    env: {} as NodeJS.ProcessEnv,
    stdout: (text: string) => {
      io.out += text;
    },
    stderr: (text: string) => {
      io.err += text;
    },
  };
  return io;
}

describe('m3 main', () => {
  let cwd: string;
  beforeEach(() => {
    cwd = mkdtempSync(join(tmpdir(), 'm3-main-'));
  });
  afterEach(() => {
    rmSync(cwd, { recursive: true, force: true });
  });

  test('splitPassthrough keeps everything after the first -- for Jest', () => {
    expect(splitPassthrough(['test', 'a', '--trials', '2', '--', '--ci', '--', 'x'])).toEqual({
      own: ['test', 'a', '--trials', '2'],
      passthrough: ['--ci', '--', 'x'],
    });
    expect(splitPassthrough(['runs'])).toEqual({ own: ['runs'], passthrough: [] });
  });

  test('no command prints help and exits 2', async () => {
    const io = captureIO(cwd);
    expect(await main([], io)).toBe(2);
    expect(io.err).toContain('Usage: m3');
  });

  test('--help exits 0 and lists the commands', async () => {
    const io = captureIO(cwd);
    expect(await main(['--help'], io)).toBe(0);
    expect(io.out).toMatch(/test \[options\] \[paths\.\.\.\]/);
    expect(io.out).toContain('runs');
    expect(io.out).toContain('report');
  });

  test.each([['--version'], ['-V']])('%s prints the sf-m3 version alone on stdout and exits 0', async (flag) => {
    const io = captureIO(cwd);
    const root = require(join(__dirname, '..', '..', '..', 'package.json')) as { version: string };
    expect(await main([flag], io)).toBe(0);
    expect(io.out).toBe(`${root.version}\n`);
    expect(io.err).toBe('');
  });

  test('--help lists -V, --version', async () => {
    const io = captureIO(cwd);
    expect(await main(['--help'], io)).toBe(0);
    expect(io.out).toMatch(/-V, --version +print the sf-m3 version/);
  });

  test('m3 test --help documents every option', async () => {
    const io = captureIO(cwd);
    expect(await main(['test', '--help'], io)).toBe(0);
    for (const flag of [
      '--results-db',
      '--run-id',
      '--trials',
      '--harness',
      '--server',
      '--url',
      '--header',
      '--command',
      '--arg',
      '--env ',
      '--env-file',
      '--execution-timeout',
      '--baseline',
      '--json',
      '--cassettes <mode>',
      '--update-cassettes',
      '--ci',
    ]) {
      expect(io.out).toContain(flag);
    }
  });

  test.each([
    [['test', '--trials', '0'], 'm3: --trials: must be a positive whole number, not "0"'],
    [['test', '--execution-timeout', 'soon'], 'm3: --execution-timeout: must be a positive number of seconds'],
    [['test', '--url', 'http://127.0.0.1:1/mcp'], 'm3: --url: must follow --server http or --server stdio'],
    [['test', '--server', 'stdio', '--arg', 'x'], 'm3: --server stdio: needs --command CMD'],
    [['test', '--harness', 'nope=x'], 'm3: --harness: unknown harness kind "nope"'],
    [['test', '--baseline', '../etc'], 'm3: --baseline: a run id uses only letters'],
    [['test', '--env-file', 'missing.env'], 'm3: --env-file: no such file:'],
    [['runs', '--limit', '-3'], 'm3: --limit: must be a positive whole number, not "-3"'],
    [['runs', '--results-db', 'nowhere.sqlite'], 'm3: --results-db: no results database at'],
    [['report', 'run-x', '--results-db', 'nowhere.sqlite'], 'm3: --results-db: no results database at'],
    [['report', '--', '--ci'], 'm3 report: "--" passes arguments to Jest and only applies to m3 test'],
    // viewer
    [['ui', '--port', '70000'], 'm3: --port: must be a port number from 1 to 65535'],
    [['ui', '--port', 'http'], 'm3: --port: must be a port number from 1 to 65535'],
    [['ui', '--results-db', 'nowhere.sqlite'], 'm3: --results-db: no results database at'],
    [['test', '--ui-port', '8080'], 'm3: --ui-port: only applies with --ui'],
    // cassettes (contract §24)
    [
      ['test', '--cassettes', 'replayy'],
      'm3: --cassettes: "replayy" is not a cassette mode; use one of auto, record, replay, off',
    ],
    [
      ['test', '--cassettes', 'replay', '--update-cassettes'],
      'm3: --update-cassettes: re-records what runs, so it cannot go with --cassettes replay',
    ],
    [['test', '--ui', '--ui-port', '99999'], 'm3: --ui-port: must be a port number'],
    [
      ['report', 'run-x', '--html', 'out', '--results-db', 'nowhere.sqlite'],
      'm3: --results-db: no results database at',
    ],
  ])('%j exits 2 naming the flag', async (argv, message) => {
    const io = captureIO(cwd);
    expect(await main(argv, io)).toBe(2);
    expect(io.err).toContain(message);
    expect(io.out).toBe('');
  });

  test('an unknown option exits 2 and says where Jest options go', async () => {
    const io = captureIO(cwd);
    expect(await main(['test', '--bail'], io)).toBe(2);
    expect(io.err).toContain("error: unknown option '--bail'");
    expect(io.err).toContain('Jest options go after "--"');
  });

  test('an unknown command exits 2', async () => {
    const io = captureIO(cwd);
    expect(await main(['tset'], io)).toBe(2);
    expect(io.err).toContain("unknown command 'tset'");
  });

  test('a malformed --header never prints its value', async () => {
    const io = captureIO(cwd);
    const argv = ['test', '--server', 'http', '--url', 'http://127.0.0.1:9/mcp', '--header', 'sk-live-abcdef123456'];
    expect(await main(argv, io)).toBe(2);
    expect(io.err).toContain('--header: expected KEY=VALUE');
    expect(io.err).not.toContain('sk-live-abcdef123456');
  });
});
