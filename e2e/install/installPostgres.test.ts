// @sf-m3/store-postgres as a user adds it to the installed project (postgresInstall.ts): after the
// README quick start has saved a run to SQLite, its README's install command, then m3 on a real
// PostgreSQL. The project is this file's own copy of the run's install (install.test.ts).
import { repoRoot } from '../cli.testkit';
import { installedProjectForFile, MINUTE, readmeCommand, writeReadmeFiles } from './installedProjectFile';
import { storePostgresChecks } from './postgresInstall';
import { output } from './userProject';

// Each Jest or m3 run in the project starts ts-jest cold on a loaded machine.
jest.setTimeout(6 * MINUTE);

const installed = installedProjectForFile('postgres');

beforeAll(async () => {
  // What the PostgreSQL checks compare against: the quick start's own SQLite run.
  writeReadmeFiles(installed());
  const quickStart = await readmeCommand(installed(), installed().quickStart.commands.at(-1)!);
  if (quickStart.status !== 0) throw new Error(`the README's npx m3 test failed:\n${output(quickStart)}`);
}, 6 * MINUTE);

storePostgresChecks(repoRoot, installed);
