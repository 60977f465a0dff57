// The README quick start in the installed project with the TypeScript its `npm install` picks
// (6.x): plain `npx jest`, `npx m3 test`, and every documented entry point type-checked under the
// three module resolutions. The project is this file's copy of the run's install (install.test.ts).
import { installedProjectForFile, MINUTE, writeReadmeFiles } from './installedProjectFile';
import { quickStartChecks } from './quickStartChecks';

// Each Jest or m3 run in the project starts ts-jest cold on a loaded machine.
jest.setTimeout(6 * MINUTE);

const installed = installedProjectForFile('typescript6');

describe('the README quick start with typescript 6 (what its npm install picks)', () => {
  beforeAll(() => writeReadmeFiles(installed()));

  quickStartChecks('6', installed);
});
