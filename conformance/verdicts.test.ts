// The runner's reading of the framework's verdicts: a scenario passes only when the framework's exit
// status and its saved checks both say so.
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

interface Check {
  id: string;
  status: string;
  description: string;
  errorMessage?: string;
}
interface Run {
  status: number | null;
  signal: string | null;
  timedOut: boolean;
}
interface Verdict {
  scenario: string;
  passed: boolean;
  reason?: string;
  counts?: { success: number; failure: number; warning: number };
  seconds: number;
}
const verdicts = require('./verdicts') as {
  verdict(input: { scenario: string; run: Run; checks: Check[] | undefined; seconds: number }): Verdict;
  readChecks(dir: string): Check[] | undefined;
  readClientStderr(dir: string): string;
  formatTable(rows: Verdict[]): string;
};
const { parseScenarioList } = require('./framework') as { parseScenarioList(stdout: string): string[] };

const ok: Run = { status: 0, signal: null, timedOut: false };
const check = (id: string, status: string, errorMessage?: string): Check => ({
  id,
  status,
  description: `${id} check`,
  ...(errorMessage !== undefined && { errorMessage }),
});

describe('conformance verdicts', () => {
  test('a scenario passes with exit 0, a SUCCESS and no FAILURE or WARNING (INFO is not scored)', () => {
    const v = verdicts.verdict({
      scenario: 'tools_call',
      run: ok,
      checks: [check('incoming', 'INFO'), check('tool-add-numbers', 'SUCCESS')],
      seconds: 1.5,
    });
    expect(v).toEqual({
      scenario: 'tools_call',
      passed: true,
      counts: { success: 1, failure: 0, warning: 0 },
      reason: undefined,
      seconds: 1.5,
    });
  });

  test('a FAILURE or WARNING check fails the scenario with its message, whatever the exit status', () => {
    const failed = verdicts.verdict({
      scenario: 'sse-retry',
      run: ok,
      checks: [check('a', 'SUCCESS'), check('client-sse-retry-timing', 'WARNING', 'reconnected slightly late')],
      seconds: 2,
    });
    expect(failed.passed).toBe(false);
    expect(failed.reason).toBe('WARNING client-sse-retry-timing: reconnected slightly late');
  });

  test('a non-zero exit, a timeout, no checks or no success is a failure', () => {
    const success = [check('a', 'SUCCESS')];
    const exit1 = verdicts.verdict({ scenario: 's', run: { ...ok, status: 1 }, checks: success, seconds: 1 });
    expect(exit1.reason).toMatch(/the framework failed the run \(exit 1\)/);
    const timedOut = verdicts.verdict({ scenario: 's', run: { ...ok, timedOut: true }, checks: success, seconds: 1 });
    expect(timedOut.reason).toBe('the framework did not finish in time');
    expect(verdicts.verdict({ scenario: 's', run: ok, checks: undefined, seconds: 1 }).reason).toBe(
      'the framework saved no checks.json',
    );
    expect(verdicts.verdict({ scenario: 's', run: ok, checks: [check('i', 'INFO')], seconds: 1 }).reason).toBe(
      'no check succeeded',
    );
  });

  test('reads the checks.json and stderr the framework saved in its timestamped folder', () => {
    const dir = mkdtempSync(join(tmpdir(), 'verdicts-'));
    try {
      expect(verdicts.readChecks(dir)).toBeUndefined();
      const saved = join(dir, 'initialize-2026-01-01T00-00-00-000Z');
      mkdirSync(saved);
      writeFileSync(join(saved, 'checks.json'), JSON.stringify([check('init', 'SUCCESS')]));
      writeFileSync(join(saved, 'stderr.txt'), 'line 1\nconformance adapter: Error: boom\n');
      expect(verdicts.readChecks(dir)).toEqual([check('init', 'SUCCESS')]);
      expect(verdicts.readClientStderr(dir)).toBe('line 1\nconformance adapter: Error: boom');
      writeFileSync(join(saved, 'checks.json'), '{not json');
      expect(verdicts.readChecks(dir)).toBeUndefined();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('the table has a row per scenario and the totals', () => {
    const rows = [
      verdicts.verdict({ scenario: 'initialize', run: ok, checks: [check('a', 'SUCCESS')], seconds: 1 }),
      verdicts.verdict({
        scenario: 'auth/x',
        run: ok,
        checks: [check('b', 'FAILURE', 'no token request')],
        seconds: 2,
      }),
    ];
    const table = verdicts.formatTable(rows).split('\n');
    expect(table[0]).toMatch(/^verdict\s+scenario\s+ok\/fail\/warn\s+time\s+reason$/);
    expect(table[2]).toMatch(/^PASS\s+initialize\s+1\/0\/0\s+1\.0 s$/);
    expect(table[3]).toMatch(/^FAIL\s+auth\/x\s+0\/1\/0\s+2\.0 s\s+FAILURE b: no token request$/);
    expect(table.at(-1)).toBe('1/2 client scenarios passed');
  });

  test('the scenario list is read from `conformance list --client`', () => {
    const stdout =
      'Client scenarios (test against a client):\n  - initialize [2025-06-18]\n  - auth/basic-cimd [2025-11-25]\n';
    expect(parseScenarioList(stdout)).toEqual(['initialize', 'auth/basic-cimd']);
    expect(() => parseScenarioList('Server scenarios:\n  - ping\n')).toThrow(/listed no client scenarios/);
  });
});
