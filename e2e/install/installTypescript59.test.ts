// The README quick start in the installed project after `npm install typescript@~5.9.3`, the
// oldest TypeScript the peer range allows: the same checks as installTypescript6.test.ts, on this
// file's own copy of the run's install (install.test.ts).
import { installedProjectForFile, MINUTE, writeReadmeFiles } from './installedProjectFile';
import { quickStartChecks } from './quickStartChecks';
import { output, run } from './userProject';

// Each Jest or m3 run in the project starts ts-jest cold on a loaded machine.
jest.setTimeout(6 * MINUTE);

const installed = installedProjectForFile('typescript59');

describe('the README quick start with typescript 5.9', () => {
  beforeAll(async () => {
    writeReadmeFiles(installed());
    const swap = await run(
      installed().project,
      'npm',
      ['install', '--save-dev', 'typescript@~5.9.3', '--prefer-offline', '--no-audit', '--no-fund'],
      5 * MINUTE,
    );
    if (swap.status !== 0) throw new Error(`installing typescript 5.9 failed:\n${output(swap)}`);
  }, 6 * MINUTE);

  quickStartChecks('5.9', installed);
});
