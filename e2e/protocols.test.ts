// The era matrix end to end (contract §23): `describe.m3({ protocols })` through the real `m3` and
// Jest binaries, against the SDK v2 fixture server over stdio, and `m3 test --protocol` replacing
// the suite's revisions for one run.
import { copyFixture, ensureBuilt, printedRunId, removeFixture, runM3, withStore } from './cli.testkit';

beforeAll(ensureBuilt);

describe('describe.m3 with protocols', () => {
  let folder: string;
  beforeEach(() => {
    folder = copyFixture('cli-protocols');
  });
  afterEach(() => removeFixture(folder));

  test('each test runs once per revision, as one case, and the run shows where the eras differ', async () => {
    const run = runM3(['test'], folder);
    expect(run.stdout).toContain('attempts    3 passed, 1 failed, 0 skipped, 0 todo');
    expect(run.status).toBe(1);
    const runId = printedRunId(run.stdout);
    const { attempts, executions, report } = await withStore(folder, async (store) => ({
      attempts: await store.listAttempts({ runId }),
      executions: await store.listExecutions({ runId }),
      report: await store.aggregateEvaluations({
        filters: { runId: [runId], evaluator: ['m3.expect.toHaveToolCall'] },
        groupBy: ['metadata.protocolVersion'],
      }),
    }));
    const outcomes = attempts.map((a) => `${a.fullName}: ${a.outcome}`).sort();
    expect(outcomes).toEqual([
      'eras [protocol=2025-11-25] confirm is one input round: failed',
      'eras [protocol=2025-11-25] echo answers in the era it was asked in: passed',
      'eras [protocol=2026-07-28] confirm is one input round: passed',
      'eras [protocol=2026-07-28] echo answers in the era it was asked in: passed',
    ]);
    // Both revisions of a test are one case, so pass rates compare the eras case by case.
    expect(new Set(attempts.map((a) => a.caseId))).toEqual(
      new Set(['eras::eras confirm is one input round', 'eras::eras echo answers in the era it was asked in']),
    );
    // The stored execution says which revision was negotiated, and is labelled with it.
    const negotiated = executions.map((e) => [
      e.labels.metadata.protocolVersion,
      (e.snapshot.protocol as { protocolVersion?: string } | undefined)?.protocolVersion,
    ]);
    expect(negotiated.sort()).toEqual([
      ['2025-11-25', '2025-11-25'],
      ['2025-11-25', '2025-11-25'],
      ['2026-07-28', '2026-07-28'],
      ['2026-07-28', '2026-07-28'],
    ]);
    const byRevision = Object.fromEntries(
      report.groups.map((g) => [
        g.key['metadata.protocolVersion'],
        `${g.values.passedCount}/${g.values.expectedCount}`,
      ]),
    );
    expect(byRevision).toEqual({ '2025-11-25': '1/2', '2026-07-28': '2/2' });
    // The summary shows the same per revision: where the two eras differ.
    expect(run.stdout).toContain('protocols   tests and evaluation pass rates per MCP revision');
    expect(run.stdout).toMatch(/^ {2}2025-11-25 {2}1\/2 test\(s\) passed$/m);
    expect(run.stdout).toMatch(/^ {2}2026-07-28 {2}2\/2 test\(s\) passed$/m);
    expect(run.stdout).toMatch(/^ {4}m3\.expect\.toHaveToolCall +50\.0% .* 1\/2$/m);
  });

  test("m3 test --protocol replaces the suite's revisions", async () => {
    const run = runM3(['test', '--protocol', '2026-07-28'], folder);
    expect(run.stdout).toContain('attempts    2 passed, 0 failed, 0 skipped, 0 todo');
    expect(run.status).toBe(0);
    const attempts = await withStore(folder, (store) => store.listAttempts({ runId: printedRunId(run.stdout) }));
    expect(attempts.every((a) => a.fullName.startsWith('eras [protocol=2026-07-28] '))).toBe(true);
  });

  test('m3 test --protocol refuses a revision the kit cannot pin', () => {
    const run = runM3(['test', '--protocol', '2026'], folder);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('--protocol: "2026" is not a revision the kit can pin');
  });
});
