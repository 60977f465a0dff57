// The README's quick start parses into what the install test runs: fast feedback when its files or
// commands move, before the (minutes long) install test copies them into a real project.
import { repoRoot } from '../cli.testkit';
import { readStorePostgresInstall } from './postgresInstall';
import { codeBlocks, installCommand, namedFile, parseQuickStart, readQuickStart } from './readmeQuickStart';

test('the README quick start names its files, the install command and the summary', () => {
  const quickStart = readQuickStart(repoRoot);
  expect([...quickStart.files.keys()].sort()).toEqual(['jest.config.js', 'tests/shipping.test.ts', 'tsconfig.json']);
  expect(quickStart.commands[0]).toBe('npm install --save-dev sf-m3 jest ts-jest typescript @types/jest');
  expect(quickStart.commands.slice(1)).toEqual([
    'npx m3 init --command node --arg dist/server.js',
    'npx m3 test',
    'npx m3 test tests/shipping.test.ts',
  ]);
  expect(quickStart.summary).toMatch(/^m3 run run-[0-9a-f]{32} {2}\(saved to \.m3\/executions\.sqlite\)\n/);
  expect(quickStart.files.get('tests/shipping.test.ts')).toContain("args: ['dist/server.js']");
});

test('a block is a file only when its first line is a comment naming one', () => {
  const [named, plain, described] = codeBlocks(
    '```js\n// jest.config.js\nmodule.exports = {};\n```\n\n```ts\nconst a = 1; // a.ts\n```\n\n```jsonc\n// tsconfig.json — why\n{}\n```\n',
  );
  expect(namedFile(named!)).toBe('jest.config.js');
  expect(namedFile(plain!)).toBeNull();
  expect(namedFile(described!)).toBe('tsconfig.json');
});

test('a quick start without files or a summary is refused, naming what is missing', () => {
  expect(() => parseQuickStart('# x\n\n## Quick start (your project)\n\n```sh\nnpx m3 test\n```\n')).toThrow(
    'README quick start names no files',
  );
  expect(() => parseQuickStart('## Other\n')).toThrow('README.md has no "## Quick start (your project)" section');
});

test("store-postgres's README Setup gives the install command the install test runs, its comment dropped", () => {
  expect(readStorePostgresInstall(repoRoot)).toBe('npm install --save-dev @sf-m3/store-postgres');
  const setup = '# pkg\n\n## Setup\n\n```sh\n# first\nnpm install pg\nnpm install -D x   # why\n```\n';
  expect(installCommand(setup, '## Setup', 'x')).toBe('npm install -D x');
  expect(() => installCommand(setup, '## Setup', 'y')).toThrow(
    'README.md\'s "## Setup" has no `npm install … y` command',
  );
});
