// The local sqlite3 prebuild of the shared install (sqlite3Prebuild.ts), checked against the real
// prebuild-install that sqlite3's install script runs: it must find the packed file by the name it
// computes and unpack the repository's binding, with every download pointed at a closed port.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  installedSqlite3Path,
  LOCAL_PREBUILDS_ENV,
  packSqlite3Prebuild,
  type Sqlite3Prebuild,
} from './sqlite3Prebuild';

// The repository root, without loading cli.testkit (and the store it imports) for one path.
const repoRoot = join(__dirname, '..', '..');
const SQLITE3 = join(repoRoot, 'node_modules', 'sqlite3');
const BINDING = join('build', 'Release', 'node_sqlite3.node');
const version = (JSON.parse(readFileSync(join(SQLITE3, 'package.json'), 'utf8')) as { version: string }).version;

let work: string;
beforeEach(() => {
  work = realpathSync(mkdtempSync(join(tmpdir(), 'm3-sqlite3-prebuild-')));
});
afterEach(() => rmSync(work, { recursive: true, force: true }));

test("sqlite3's own install script (prebuild-install -r napi) finds the packed binding and unpacks it", () => {
  const prebuild = packSqlite3Prebuild(repoRoot, join(work, 'prebuilds'));
  expect(prebuild).toEqual({
    packed: true,
    version,
    tarball: expect.stringMatching(new RegExp(`/prebuilds/sqlite3-v${version}-napi-v\\d+-${process.platform}`)),
    env: { [LOCAL_PREBUILDS_ENV]: join(work, 'prebuilds') },
  });
  // A package folder as npm unpacks sqlite3, before its install script has run.
  const installed = join(work, 'sqlite3');
  mkdirSync(installed);
  copyFileSync(join(SQLITE3, 'package.json'), join(installed, 'package.json'));
  const script = spawnSync(
    process.execPath,
    [require.resolve('prebuild-install/bin', { paths: [SQLITE3] }), '-r', 'napi', '--verbose'],
    {
      cwd: installed,
      encoding: 'utf8',
      // Had it computed another name, it would download: from a port nothing listens on.
      env: { ...process.env, ...prebuild.env, npm_config_sqlite3_binary_host: 'http://127.0.0.1:9' },
    },
  );
  expect({ status: script.status, stderr: script.stderr }).toEqual({
    status: 0,
    stderr: expect.stringContaining('found local prebuild'),
  });
  expect(readFileSync(join(installed, BINDING)).equals(readFileSync(join(SQLITE3, BINDING)))).toBe(true);
});

test('without a built binding there is nothing to pack, and the reason names the fix', () => {
  const bare = join(work, 'repo', 'node_modules', 'sqlite3');
  mkdirSync(bare, { recursive: true });
  copyFileSync(join(SQLITE3, 'package.json'), join(bare, 'package.json'));
  expect(packSqlite3Prebuild(join(work, 'repo'), join(work, 'prebuilds'))).toEqual({
    packed: false,
    reason: "the repository's sqlite3 has no build/Release/node_sqlite3.node (npm rebuild sqlite3 builds it)",
    env: {},
  });
});

test('the install is reported as built from source, as the local prebuild, or as a downloaded one', () => {
  const project = join(work, 'project');
  const installed = join(project, 'node_modules', 'sqlite3');
  mkdirSync(join(installed, 'build', 'Release'), { recursive: true });
  writeFileSync(join(installed, 'package.json'), JSON.stringify({ name: 'sqlite3', version: '6.0.1' }));
  writeFileSync(join(installed, BINDING), '');
  const packed: Sqlite3Prebuild = { packed: true, version: '6.0.1', tarball: 'x.tar.gz', env: {} };
  expect(installedSqlite3Path(project, packed)).toBe(
    "sqlite3 6.0.1 installed the repository's binding as a local prebuild (no compile)",
  );
  expect(installedSqlite3Path(project, { ...packed, version: '6.0.0' })).toBe(
    'sqlite3 6.0.1 installed a downloaded prebuild',
  );
  mkdirSync(join(installed, 'build', 'Release', 'obj.target'));
  expect(installedSqlite3Path(project, { ...packed, version: '6.0.0' })).toBe(
    "sqlite3 6.0.1 built from source (the repository's prebuild is for 6.0.0, not the installed 6.0.1)",
  );
});
