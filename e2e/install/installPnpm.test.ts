// The packed tarballs under pnpm (issue: "from outside, round two", pnpm): the README's "pnpm and
// yarn" commands as written, in a fresh project beside the run's shared npm install, with pnpm
// 12 from the npm registry (pnpmTool.ts). pnpm's strict node_modules shows any dependency a package
// uses without declaring it.
//
// One departure from the README, to keep CI from building sqlite3 again: the install adds
// `--ignore-scripts`, and the sqlite3 binding the shared npm install put in place (the same
// version, this Node) is copied into pnpm's sqlite3 before `m3 test`. Without it, the doctor must
// name the fix.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { repoRoot } from '../cli.testkit';
import { installedProjectForFile, MINUTE } from './installedProjectFile';
import { pnpmExecutable } from './pnpmTool';
import { codeBlocks, readmeSection } from './readmeQuickStart';
import { output, run, type CommandResult } from './userProject';

jest.setTimeout(10 * MINUTE);

const installed = installedProjectForFile('pnpm');
const PNPM_HEADING = '## pnpm and yarn';

/** The commands of the README's pnpm block, in order. */
function readmePnpmCommands(): string[] {
  const section = readmeSection(readFileSync(join(repoRoot, 'README.md'), 'utf8'), PNPM_HEADING);
  const block = codeBlocks(section).find((b) => b.lang === 'sh');
  if (block === undefined) throw new Error(`README.md's "${PNPM_HEADING}" has no sh block`);
  return block.text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.length > 0);
}

let pnpm = '';
let project = '';

/** A README command line through bash, with the cached pnpm first on PATH. */
function shell(line: string, timeoutMs = 5 * MINUTE): Promise<CommandResult> {
  return run(project, 'bash', ['-c', line], timeoutMs, { PATH: `${dirname(pnpm)}:${process.env.PATH ?? ''}` });
}

/** The folder of the sqlite3 package pnpm installed (in its virtual store). */
function pnpmSqlite3(): string {
  const store = join(project, 'node_modules', '.pnpm');
  const entry = readdirSync(store).find((name) => name.startsWith('sqlite3@'));
  if (entry === undefined) throw new Error('pnpm installed no sqlite3');
  return join(store, entry, 'node_modules', 'sqlite3');
}

beforeAll(async () => {
  pnpm = await pnpmExecutable(repoRoot);
  const { work, packed } = installed();
  project = join(work, 'pnpm-project');
  mkdirSync(join(project, 'dist'), { recursive: true });
  writeFileSync(join(project, 'package.json'), '{ "name": "m3-pnpm-project", "version": "1.0.0", "private": true }\n');
  // From the registry the @sf-m3 packages would come by name; here they come from the tarballs.
  const overrides = packed
    .filter((entry) => entry.name.startsWith('@sf-m3/') && entry.name !== '@sf-m3/store-postgres')
    .map((entry) => `  "${entry.name}": "file:${entry.tarball}"`);
  writeFileSync(join(project, 'pnpm-workspace.yaml'), `overrides:\n${overrides.join('\n')}\n`);
  cpSync(join(repoRoot, 'e2e', 'fixtures', 'install-project', 'server.js'), join(project, 'dist', 'server.js'));
}, 10 * MINUTE);

describe('sf-m3 installed with pnpm', () => {
  test("the README's pnpm add installs it; the doctor words the missing sqlite3 build in pnpm", async () => {
    const [add] = readmePnpmCommands();
    expect(add).toMatch(/^pnpm add -D .* sf-m3 /);
    const root = installed().packed.find((entry) => entry.name === 'sf-m3')!;
    const install = await shell(
      `${add.replace(' sf-m3 ', ` ${root.tarball} `)} @modelcontextprotocol/sdk zod --ignore-scripts`,
    );
    expect({ status: install.status, output: install.status === 0 ? '' : output(install) }).toEqual({
      status: 0,
      output: '',
    });
    // The README's --allow-build choices are recorded for the next install.
    expect(readFileSync(join(project, 'pnpm-workspace.yaml'), 'utf8')).toMatch(/allowBuilds:\n(.*\n)*\s+sqlite3: true/);
    const doctor = await shell('pnpm exec m3 doctor');
    const text = output(doctor);
    expect(doctor.status).toBe(1);
    expect(text).toMatch(/^ok {4}typescript {6}[56]\./m);
    expect(text).toContain('fail  sqlite3');
    expect(text).toContain('its install script did not run (pnpm did not allow it) — fix: pnpm approve-builds sqlite3');
  });

  test("with sqlite3 built, the README's pnpm exec m3 init and m3 test pass", async () => {
    const sqlite = pnpmSqlite3();
    const built = join(installed().project, 'node_modules', 'sqlite3');
    const version = (dir: string) =>
      (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string }).version;
    expect(version(sqlite)).toBe(version(built));
    expect(existsSync(join(built, 'build'))).toBe(true);
    const copy = spawnSync('cp', ['-a', join(built, 'build'), sqlite], { encoding: 'utf8' });
    expect(copy.stderr).toBe('');

    const [, init, test] = readmePnpmCommands();
    expect(init).toBe('pnpm exec m3 init --command node --arg dist/server.js');
    const initRun = await shell(init!);
    expect(initRun.status).toBe(0);
    expect(initRun.stdout).toContain('next: pnpm exec m3 test');
    const doctor = await shell('pnpm exec m3 doctor');
    expect(output(doctor)).toMatch(/doctor: \d+ ok, \d+ warn, 0 fail/);
    const m3Test = await shell(test!);
    expect({ status: m3Test.status, output: m3Test.status === 0 ? '' : output(m3Test) }).toEqual({
      status: 0,
      output: '',
    });
    expect(m3Test.stdout).toContain('attempts    1 passed, 0 failed, 0 skipped, 0 todo');
  });
});
