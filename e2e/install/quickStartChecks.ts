// The README quick start and the entry-point type checks, run with whichever TypeScript the
// project has installed: the install test files call it once per TypeScript line they support.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { checkEntryPoints, RESOLUTION_MODES, type EntryPointCheck } from './entryPointTypes';
import type { InstalledProject } from './installedProject';
import { npx, readmeCommand, resultsDbStamp } from './installedProjectFile';
import { normalizeRunIds } from './readmeQuickStart';
import { installedVersion, log } from './userProject';

/** The checks of one TypeScript line (`6`, `5.9`) on the project `installed()` returns. */
export function quickStartChecks(line: string, installed: () => InstalledProject): void {
  // The three resolutions are checked in one process, by the first of their tests to run.
  let entryPointChecks: Promise<ReadonlyMap<string, EntryPointCheck>> | undefined;

  test(`typescript ${line}.x is the one installed`, async () => {
    const version = await installedVersion(installed().project, 'typescript');
    log(`typescript ${version}`);
    expect(version.startsWith(`${line}.`)).toBe(true);
  });

  test('plain npx jest runs the README test green and writes nothing', async () => {
    const before = resultsDbStamp(installed());
    const result = await npx(installed(), ['jest']);
    installed().figures.push(`npx jest (typescript ${line}): ${result.seconds.toFixed(1)} s`);
    expect(result.stderr).toContain('Tests:       1 passed, 1 total');
    expect(result.status).toBe(0);
    expect(resultsDbStamp(installed())).toBe(before);
  });

  test('npx m3 test runs it green, saves the run and prints the summary the README shows', async () => {
    const { quickStart, project, figures } = installed();
    const result = await readmeCommand(installed(), quickStart.commands.at(-1)!);
    figures.push(`npx m3 test (typescript ${line}): ${result.seconds.toFixed(1)} s`);
    expect(result.stderr).toContain('Tests:       1 passed, 1 total');
    expect(normalizeRunIds(result.stdout)).toBe(normalizeRunIds(quickStart.summary));
    expect(result.status).toBe(0);
    expect(existsSync(join(project, '.m3', 'executions.sqlite'))).toBe(true);
  });

  test.each(RESOLUTION_MODES.map((mode) => [mode.name] as const))(
    'every documented entry point type-checks under %s resolution',
    async (name) => {
      entryPointChecks ??= checkEntryPoints(installed().project);
      const check = (await entryPointChecks).get(name)!;
      log(`${check.tsconfig}: ${check.checked.length} own files checked, ${check.skipped} of other packages not`);
      // The check covered the user's file and sf-m3's declarations, not nothing.
      expect(check.checked).toEqual(
        expect.arrayContaining([
          'types/entryPoints.ts',
          'node_modules/sf-m3/index.d.ts',
          'node_modules/sf-m3/globals.d.ts',
        ]),
      );
      expect(check.checked.filter((file) => file.startsWith('node_modules/@sf-m3/core/')).length).toBeGreaterThan(0);
      expect(check.output).toBe('');
      expect(check.code).toBe(0);
    },
  );
}
