import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CliIO } from '../CliIO';
import { runInitCommand, validateInitOptions } from './init';

function captureIO(cwd: string): CliIO & { out: string; err: string } {
  const io = {
    cwd,
    env: {},
    out: '',
    err: '',
    stdout: (t: string) => void (io.out += t),
    stderr: (t: string) => void (io.err += t),
  };
  return io;
}

describe('m3 init options', () => {
  test('a stdio command with its args, an HTTP url, or neither', () => {
    expect(validateInitOptions({ command: 'node', arg: ['dist/server.js'] })).toEqual({
      server: { transport: 'stdio', command: 'node', args: ['dist/server.js'] },
      suite: 'mcp-behavior',
    });
    expect(validateInitOptions({ url: 'http://127.0.0.1:3000/mcp', suite: ' shipping ' })).toEqual({
      server: { transport: 'http', url: 'http://127.0.0.1:3000/mcp' },
      suite: 'shipping',
    });
    expect(validateInitOptions({}).server).toBeNull();
  });

  test('a URL carrying credentials is refused before anything is written into a test file', () => {
    expect(() => validateInitOptions({ url: 'http://user:pw@127.0.0.1/mcp' })).toThrow(
      '--url: must not carry credentials; pass them with --header Authorization=...',
    );
    expect(() => validateInitOptions({ suite: '   ' })).toThrow('--suite: must be a name of 1 to 256 characters');
    expect(() => validateInitOptions({ command: ' ' })).toThrow('--command: must not be empty');
  });
});

describe('m3 init on a folder', () => {
  let folder: string;
  beforeEach(() => (folder = mkdtempSync(join(tmpdir(), 'm3-init-'))));
  afterEach(() => rmSync(folder, { recursive: true, force: true }));

  test('without package.json it writes nothing and exits 2', async () => {
    const io = captureIO(folder);
    expect(await runInitCommand({}, io)).toBe(2);
    expect(io.err).toContain('no package.json in');
    expect(readdirSync(folder)).toEqual([]);
  });

  test('a blocked step keeps every other step from writing', async () => {
    writeFileSync(join(folder, 'package.json'), '{ "name": "p" }');
    writeFileSync(join(folder, 'jest.config.js'), 'module.exports = makeConfig();');
    const io = captureIO(folder);
    expect(await runInitCommand({ command: 'node', arg: ['s.js'] }, io)).toBe(2);
    expect(io.out).toContain(
      'jest config    cannot edit jest.config.js safely: it does not export an object literal (a function or a call, perhaps)\n' +
        "               add this line to the config object it exports, then run `npx m3 init` again:  preset: 'sf-m3',\n",
    );
    expect(io.out).toContain(
      '.gitignore     not written while a step needs you (would be: created .gitignore with .m3/)\n',
    );
    expect(readdirSync(folder).sort()).toEqual(['jest.config.js', 'package.json']);
  });

  test("the next step is worded in the project's package manager", async () => {
    writeFileSync(join(folder, 'package.json'), '{ "name": "p", "packageManager": "pnpm@12.24.0" }');
    const io = captureIO(folder);
    expect(await runInitCommand({ command: 'node', arg: ['s.js'] }, io)).toBe(0);
    expect(io.out).toMatch(/\nnext: pnpm exec m3 test\n$/);
  });
});

test('a tsconfig that is not JSONC blocks init, naming the file', async () => {
  const folder = mkdtempSync(join(tmpdir(), 'm3-init-'));
  try {
    writeFileSync(join(folder, 'package.json'), '{ "name": "p" }');
    writeFileSync(join(folder, 'tsconfig.json'), '{ "compilerOptions": { "types": ["jest" } }');
    const io = captureIO(folder);
    expect(await runInitCommand({}, io)).toBe(2);
    expect(io.out).toContain('tsconfig       could not read tsconfig.json: expected "," or "]" at offset 40\n');
    expect(readdirSync(folder).sort()).toEqual(['package.json', 'tsconfig.json']);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});
