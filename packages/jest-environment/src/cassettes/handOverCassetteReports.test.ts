import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { CassetteFileReport } from '../RunStateDir';
import { CASSETTE_REPORTS_FILE, handOverCassetteReports } from './handOverCassetteReports';

const report = (overrides: Partial<CassetteFileReport> = {}): CassetteFileReport => ({
  kind: 'cassette_file',
  testPath: 'tests/agents.test.ts',
  replayed: 2,
  recorded: 0,
  obsolete: 0,
  obsoleteTests: [],
  written: false,
  removed: false,
  ...overrides,
});

describe('handOverCassetteReports', () => {
  let root: string;
  beforeEach(() => (root = fs.mkdtempSync(path.join(os.tmpdir(), 'm3-cassette-handover-'))));
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  test('under m3 test, writes the reports where the CLI reads them, printing nothing', () => {
    const printed: string[] = [];
    const reports = [report(), report({ testPath: 'tests/b.test.ts', obsolete: 1, obsoleteTests: ['b old'] })];
    expect(handOverCassetteReports(reports, { M3_RUN_STATE_ROOT: root }, (text) => printed.push(text))).toEqual([]);
    expect(JSON.parse(fs.readFileSync(path.join(root, CASSETTE_REPORTS_FILE), 'utf8'))).toEqual(reports);
    expect(printed).toEqual([]);
    expect(fs.readdirSync(root)).toEqual([CASSETTE_REPORTS_FILE]);
  });

  test('under a plain jest, tells obsolete entries as Jest tells obsolete snapshots', () => {
    const printed: string[] = [];
    const reports = [report(), report({ obsolete: 2, obsoleteTests: ['agents old', 'agents older'] })];
    handOverCassetteReports(reports, {}, (text) => printed.push(text));
    expect(printed.join('')).toBe(
      'm3: 2 obsolete cassette entries; to remove them, re-run the whole files with M3_UPDATE_CASSETTES=1 ' +
        '(or npx m3 test --update-cassettes)\n  ↳ tests/agents.test.ts\n      • agents old\n      • agents older\n',
    );
    printed.length = 0;
    handOverCassetteReports([report()], {}, (text) => printed.push(text));
    handOverCassetteReports([report({ obsolete: 1, removed: true })], {}, (text) => printed.push(text));
    expect(printed.join('')).toBe('m3: 1 obsolete cassette entry removed\n  ↳ tests/agents.test.ts\n');
  });
});
