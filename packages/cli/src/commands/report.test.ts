import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SQLiteExecutionStore } from '@sf-m3/store-sqlite';
import type { CliIO } from '../CliIO';
import { seedRun } from '../summary/runFixtures.testkit';
import { runReportCommand } from './report';

describe('m3 report --baseline latest', () => {
  let cwd: string;
  let out: string;
  let io: CliIO;
  const runIds: string[] = [];

  beforeAll(async () => {
    cwd = mkdtempSync(join(tmpdir(), 'm3-report-'));
    const store = new SQLiteExecutionStore(join(cwd, 'results.sqlite'));
    for (const outcome of ['passed', 'failed', 'passed'] as const) {
      runIds.push(await seedRun(store, [{ suite: 'shipping', fullName: 'shipping local', outcome }]));
    }
    await store.close();
  });
  afterAll(() => rmSync(cwd, { recursive: true, force: true }));
  beforeEach(() => {
    out = '';
    io = { cwd, env: {}, stdout: (text) => (out += text), stderr: (text) => (out += text) };
  });

  async function report(runId?: string): Promise<{ status: number; summary: Record<string, unknown> }> {
    const status = await runReportCommand({ runId, resultsDb: 'results.sqlite', baseline: 'latest', json: true }, io);
    return { status, summary: JSON.parse(out) as Record<string, unknown> };
  }

  test('compares a run with the newest run that started before it', async () => {
    const { status, summary } = await report(runIds[1]);
    expect(status).toBe(1);
    expect(summary).toMatchObject({ runId: runIds[1], baseline: { baselineRunId: runIds[0] }, baselineNote: null });
  });

  test('without RUN_ID reports the newest run against the one before it', async () => {
    const { status, summary } = await report();
    expect(status).toBe(0);
    expect(summary).toMatchObject({ runId: runIds[2], baseline: { baselineRunId: runIds[1] } });
  });

  test('the oldest run has no baseline and says so', async () => {
    const { summary } = await report(runIds[0]);
    expect(summary).toMatchObject({ baseline: null, baselineNote: 'no earlier run to compare with' });
  });
});
