// contract §23, "done when": a suite written once passes from the packed packages in a fresh
// project against servers built with @modelcontextprotocol/server v2: a both-eras server in each
// era, a 2026-07-28-only server over stdio, Streamable HTTP and in process. The project is this
// file's own copy of the run's install (install.test.ts) plus the SDK v2 server packages, installed
// from the registry as a user adds them.
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../cli.testkit';
import { installedProjectForFile, MINUTE, npx, writeReadmeFiles } from './installedProjectFile';
import { output, run } from './userProject';

// Each Jest or m3 run in the project starts ts-jest cold on a loaded machine.
jest.setTimeout(6 * MINUTE);

const installed = installedProjectForFile('eras');
const V2_SERVER = join(repoRoot, 'packages', 'core', 'src', 'client', '__fixtures__', 'v2-era-server.js');
const SUITE = join(repoRoot, 'e2e', 'fixtures', 'install-eras', 'eras.test.ts');

beforeAll(async () => {
  writeReadmeFiles(installed());
  const project = installed().project;
  const add = await run(
    project,
    'npm',
    [
      'install',
      '--save-dev',
      '@modelcontextprotocol/server@2.4.0',
      '@modelcontextprotocol/node@2.1.2',
      'zod@^4.1.0',
      '--prefer-offline',
      '--no-audit',
      '--no-fund',
    ],
    5 * MINUTE,
  );
  if (add.status !== 0) throw new Error(`installing the SDK v2 server packages failed:\n${output(add)}`);
  copyFileSync(V2_SERVER, join(project, 'server-v2.js'));
  mkdirSync(join(project, 'tests'), { recursive: true });
  copyFileSync(SUITE, join(project, 'tests', 'eras.test.ts'));
}, 6 * MINUTE);

test('an era suite passes from the packed packages against SDK v2 servers in every transport', async () => {
  const result = await npx(installed(), ['m3', 'test', 'tests/eras.test.ts']);
  const text = output(result);
  expect({ status: result.status, text }).toEqual({ status: 0, text: expect.any(String) });
  // Each test of the era matrix ran once per revision, in a block titled with the revision.
  expect(text).toContain('[protocol=2025-11-25]');
  expect(text).toContain('[protocol=2026-07-28]');
  expect(text).toMatch(/Tests:\s+7 passed, 7 total/);
});
