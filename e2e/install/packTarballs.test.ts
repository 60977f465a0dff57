// The tarball rule of contract §16 on file lists: what a package may ship and what it must not.
import { unshippableFiles } from './packTarballs';

test('built JavaScript, declarations, README, docs/ guides, LICENSE and package.json are shippable', () => {
  const files = ['package.json', 'README.md', 'LICENSE', 'dist/index.js', 'dist/index.d.ts', 'vendor/acp-sdk.cjs'];
  expect(
    unshippableFiles(['docs/direct-client.md', 'docs/harness-claude_code.md', 'docs/images/viewer-run.png']),
  ).toEqual([]);
  expect(
    unshippableFiles([...files, 'dist/project/tsconfigTypes.js', 'dist/commands/test.js', 'dist/ui/client/viewer.css']),
  ).toEqual([]);
});

test('sources, maps, tests, fixtures, env files and configs are not', () => {
  const wrong = [
    'src/index.ts',
    'dist/index.js.map',
    'dist/kit.test.js',
    'dist/kit.testkit.d.ts',
    'dist/__fixtures__/server.js',
    'e2e/fixtures/cli-env/.env',
    '.ci/run',
    'tsconfig.base.json',
    'eslint.config.mjs',
    'dist/.tsbuildinfo',
    'dist/theme.css',
    'docs/notes.txt',
    'src/docs/a.md',
  ];
  expect(unshippableFiles(wrong).map((entry) => entry.split(' ')[0])).toEqual(wrong);
});
