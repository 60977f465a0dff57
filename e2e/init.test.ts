// End-to-end: `npx m3 init` on fixture projects (copied to temp folders, with node_modules linking
// what a user installs), then `npx m3 test` running the starter suite against the repo's example
// server. Each project is initialized twice; the second run must change no byte.
import { copyFileSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureBuilt, removeFixture, repoRoot } from './cli.testkit';
import { exampleServer, installedFixture, installedM3, projectFiles } from './init.testkit';

jest.setTimeout(300_000);

const folders: string[] = [];
function project(name: string): string {
  const folder = installedFixture(name);
  folders.push(folder);
  return folder;
}

beforeAll(() => ensureBuilt());
afterAll(() => folders.forEach(removeFixture));

/** The second `m3 init` finds every step done and changes nothing. */
function expectSecondRunChangesNothing(folder: string, args: string[]): void {
  const before = projectFiles(folder);
  const again = installedM3(folder, ['init', ...args]);
  expect(again.stderr).toBe('');
  expect(
    again.stdout
      .split('\n')
      .slice(0, 4)
      .map((l) => l.replace(/ {2,}.*/, '')),
  ).toEqual(['jest config', 'tsconfig', '.gitignore', 'starter suite']);
  expect(
    again.stdout
      .split('\n')
      .slice(0, 4)
      .every((l) => / {2}already done: /.test(l)),
  ).toBe(true);
  expect(again.stdout).toContain('nothing to change: this project is set up for sf-m3');
  expect(again.status).toBe(0);
  expect(projectFiles(folder)).toEqual(before);
}

describe('m3 init', () => {
  test('a project with no Jest config: the README invocation gives a suite that passes against a real server', () => {
    const folder = project('init-no-config');
    // The user's built server: the repo's example server, required from dist/server.js.
    mkdirSync(join(folder, 'dist'));
    writeFileSync(join(folder, 'dist', 'server.js'), `require(${JSON.stringify(exampleServer)});\n`);

    const init = installedM3(folder, ['init', '--command', 'node', '--arg', 'dist/server.js']);
    expect(init.stderr).toBe('');
    expect(init.stdout).toBe(
      [
        "jest config    created jest.config.js with preset: 'sf-m3'",
        'tsconfig       created tsconfig.json (the README\'s, with "types": ["jest", "sf-m3/globals"])',
        '.gitignore     created .gitignore with .m3/',
        'starter suite  wrote tests/mcp-behavior.m3.test.ts (starts node with 1 argument(s) and lists its tools)',
        'next: npx m3 test',
        '',
      ].join('\n'),
    );
    expect(init.status).toBe(0);
    expect(readFileSync(join(folder, 'jest.config.js'), 'utf8')).toContain("module.exports = { preset: 'sf-m3' };");
    expect(readFileSync(join(folder, '.gitignore'), 'utf8')).toBe('.m3/\n');
    const starter = readFileSync(join(folder, 'tests', 'mcp-behavior.m3.test.ts'), 'utf8');
    expect(starter).toContain("args: ['dist/server.js'],");
    expect(starter).toContain("describe.m3('mcp-behavior', () => {");

    const run = installedM3(folder, ['test']);
    const output = `${run.stdout}\n${run.stderr}`;
    expect(output).toContain('✓ lists its tools');
    expect(run.stdout).toContain('suites      mcp-behavior\n');
    expect(run.stdout).toContain('attempts    1 passed, 0 failed, 0 skipped, 0 todo\n');
    expect(run.stdout).toMatch(/verdict {5}passed\n$/);
    expect(run.status).toBe(0);

    expectSecondRunChangesNothing(folder, ['--command', 'node', '--arg', 'dist/server.js']);
  });

  test('a project with its own config and reporter: both are kept, the preset added, and its reporter sees the starter pass', () => {
    const folder = project('init-own-config');
    // The project's own reporter: the one the user-project fixture uses (writes reporter-output.json).
    copyFileSync(
      join(__dirname, 'fixtures', 'user-project', 'recordingReporter.js'),
      join(folder, 'recordingReporter.js'),
    );
    const config = readFileSync(join(folder, 'jest.config.js'), 'utf8');
    const init = installedM3(folder, [
      'init',
      '--command',
      'node',
      '--arg',
      exampleServer,
      '--suite',
      'Catalog Server',
    ]);
    expect(init.stdout).toContain("jest config    added preset: 'sf-m3' to jest.config.js\n");
    expect(init.stdout).toContain(
      'tsconfig       added "types": ["jest", "node", "sf-m3/globals"] to compilerOptions in tsconfig.json\n',
    );
    expect(init.stdout).toContain('.gitignore     added .m3/ to .gitignore\n');
    expect(init.stdout).toContain('starter suite  wrote tests/catalog-server.m3.test.ts');
    expect(init.stdout).toContain(
      'your Jest config sets testMatch: make sure it matches tests/catalog-server.m3.test.ts',
    );
    expect(init.status).toBe(0);
    expect(readFileSync(join(folder, 'jest.config.js'), 'utf8')).toBe(
      config.replace('module.exports = {\n', "module.exports = {\n  preset: 'sf-m3',\n"),
    );
    expect(readFileSync(join(folder, 'tsconfig.json'), 'utf8')).toBe(
      [
        '{',
        '  // The project\'s compiler options; it sets no "types", so TypeScript includes every @types package.',
        '  "compilerOptions": {',
        '    "target": "ES2022",',
        '    "module": "commonjs",',
        '    "strict": true,',
        '    "esModuleInterop": true,',
        '    "types": ["jest", "node", "sf-m3/globals"]',
        '  }',
        '}',
        '',
      ].join('\n'),
    );
    expect(readFileSync(join(folder, '.gitignore'), 'utf8')).toBe('node_modules/\nreporter-output.json\n.m3/\n');

    const run = installedM3(folder, ['test']);
    expect(run.stdout).toContain('attempts    1 passed, 0 failed, 0 skipped, 0 todo\n');
    expect(run.status).toBe(0);
    const reported = JSON.parse(readFileSync(join(folder, 'reporter-output.json'), 'utf8'));
    expect(reported.tests).toEqual([
      { file: 'catalog-server.m3.test.ts', name: 'Catalog Server lists its tools', status: 'passed' },
    ]);

    expectSecondRunChangesNothing(folder, ['--command', 'node', '--arg', exampleServer, '--suite', 'Catalog Server']);
  });

  test('a project with another preset is left untouched: exit 2 and how to combine them', () => {
    const folder = project('init-other-preset');
    const before = projectFiles(folder);
    const init = installedM3(folder, ['init', '--command', 'node', '--arg', exampleServer]);
    expect(init.stdout).toContain("jest config    jest.config.js already has preset: 'ts-jest'\n");
    expect(init.stdout).toContain('a Jest config has one preset, so init left jest.config.js alone.');
    expect(init.stdout).toContain(
      "projects: [{ preset: 'ts-jest', ...your settings }, { displayName: 'm3', preset: 'sf-m3'",
    );
    expect(init.stdout).toContain(
      'tsconfig       not written while a step needs you (would be: added "sf-m3/globals" to compilerOptions.types in tsconfig.json)\n',
    );
    expect(init.stderr).toBe('m3 init: nothing was written, because jest config needs you (above)\n');
    expect(init.status).toBe(2);
    expect(projectFiles(folder)).toEqual(before);
  });

  test('a tsconfig with other types keeps them and its comments; a config in package.json gets the preset', () => {
    const folder = project('init-tsconfig-types');
    const init = installedM3(folder, ['init']);
    expect(init.stdout).toContain('jest config    added preset: \'sf-m3\' to the "jest" key of package.json\n');
    expect(init.stdout).toContain('tsconfig       added "sf-m3/globals" to compilerOptions.types in tsconfig.json\n');
    expect(init.stdout).toContain(
      'starter suite  wrote tests/mcp-behavior.m3.test.ts (skipped until you fill in your server)\n',
    );
    expect(init.stdout).toContain(
      'next: fill in your server in the starter suite, remove `.skip`, then run `npx m3 test`\n',
    );
    expect(init.status).toBe(0);
    expect(readFileSync(join(folder, 'tsconfig.json'), 'utf8')).toBe(
      [
        '{',
        '  // Shared compiler options.',
        '  "compilerOptions": {',
        '    "strict": true,',
        "    /* Node's types and the test globals. */",
        '    "types": [',
        '      "node", // process, Buffer',
        '      "jest",',
        '      "sf-m3/globals"',
        '    ]',
        '  },',
        '  "include": ["src", "tests"]',
        '}',
        '',
      ].join('\n'),
    );
    const pkg = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8'));
    expect(pkg.jest).toEqual({ preset: 'sf-m3', verbose: true });
    const starter = readFileSync(join(folder, 'tests', 'mcp-behavior.m3.test.ts'), 'utf8');
    expect(starter).toContain("describe.m3.skip('mcp-behavior', () => {");
    expect(starter).toContain("args: ['path/to/your/server.js'],");

    // The skipped starter runs as skipped: the project is set up, nothing fails.
    const run = installedM3(folder, ['test']);
    expect(run.stdout).toContain('attempts    0 passed, 0 failed, 1 skipped, 0 todo\n');
    expect(run.status).toBe(0);

    expectSecondRunChangesNothing(folder, []);
  });

  test('an ESM project: an ES module config, a starter without __dirname, types without the @types Jest brought', () => {
    const folder = project('init-esm');
    // Jest's own dependencies install @types packages the project never declared.
    for (const name of ['babel__core', 'yargs']) {
      symlinkSync(join(repoRoot, 'node_modules', '@types', name), join(folder, 'node_modules', '@types', name), 'dir');
    }
    // The user's built server, an ES module like the rest of the project.
    mkdirSync(join(folder, 'dist'));
    writeFileSync(join(folder, 'dist', 'server.js'), `import ${JSON.stringify(exampleServer)};\n`);

    const init = installedM3(folder, ['init', '--command', 'node', '--arg', 'dist/server.js']);
    expect(init.stderr).toBe('');
    expect(init.stdout).toContain(
      'tsconfig       added "types": ["jest", "node", "sf-m3/globals"] to compilerOptions in tsconfig.json\n',
    );
    expect(init.status).toBe(0);
    expect(readFileSync(join(folder, 'jest.config.js'), 'utf8')).toContain("export default { preset: 'sf-m3' };");
    const starter = readFileSync(join(folder, 'tests', 'mcp-behavior.m3.test.ts'), 'utf8');
    expect(starter).toContain('  cwd: process.cwd(),\n');
    expect(starter).not.toContain('__dirname');

    const run = installedM3(folder, ['test']);
    expect(run.stderr).not.toContain('151002');
    expect(run.stdout).toContain('attempts    1 passed, 0 failed, 0 skipped, 0 todo\n');
    expect(run.status).toBe(0);
  });

  test('usage errors name the flag and exit 2', () => {
    const folder = project('init-no-config');
    const both = installedM3(folder, ['init', '--command', 'node', '--url', 'http://127.0.0.1:3000/mcp']);
    expect(both.stderr).toBe('m3: --url: give either --command (a stdio server) or --url (an HTTP server), not both\n');
    expect(both.status).toBe(2);
    const loneArg = installedM3(folder, ['init', '--arg', 'dist/server.js']);
    expect(loneArg.stderr).toContain('m3: --arg: belongs to --command');
    expect(loneArg.status).toBe(2);
    expect(Object.keys(projectFiles(folder))).toEqual(['package.json']);
  });
});
