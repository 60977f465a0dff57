// The README quick start in the installed project with the TypeScript its `npm install` picks
// (6.x): plain `npx jest`, `npx m3 test`, and every documented entry point type-checked under the
// three module resolutions. Then, in the same project, what a user does next when their history
// moves to PostgreSQL: @sf-m3/store-postgres installed with its README command and m3 on a real
// PostgreSQL (postgresInstall.ts), compared with the quick start's SQLite run just saved. One
// project serves both, so the quick start's cold `npx m3 test` runs once. The project is this
// file's copy of the run's install (install.test.ts).
import { repoRoot } from '../cli.testkit';
import { installedProjectForFile, MINUTE, writeReadmeFiles } from './installedProjectFile';
import { storePostgresChecks } from './postgresInstall';
import { quickStartChecks } from './quickStartChecks';

// Each Jest or m3 run in the project starts ts-jest cold on a loaded machine.
jest.setTimeout(6 * MINUTE);

const installed = installedProjectForFile('typescript6');

describe('the README quick start with typescript 6 (what its npm install picks)', () => {
  beforeAll(() => writeReadmeFiles(installed()));

  quickStartChecks('6', installed);
});

// After the quick start above: its `npx m3 test` left the SQLite run the PostgreSQL checks compare with.
storePostgresChecks(repoRoot, installed);
