import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SQLiteExecutionStore } from '@sf-m3/store-sqlite';
import type { CliIO } from '../CliIO';
import { UsageError } from '../options/UsageError';
import { pruneSelection, runPruneCommand } from './prune';

const now = new Date('2026-03-31T00:00:00.000Z');

function captureIO(cwd: string): CliIO & { out: string[] } {
  const out: string[] = [];
  return { out, stdout: (t) => out.push(t), stderr: (t) => out.push(t), cwd, env: {} };
}

describe('pruneSelection', () => {
  test('--keep-runs N or --older-than DURATION, described for the report', () => {
    expect(pruneSelection({ keepRuns: '0' }, now)).toEqual({
      selection: { keepRuns: 0 },
      described: 'keep the 0 newest runs',
    });
    expect(pruneSelection({ keepRuns: '1' }, now).described).toBe('keep the 1 newest run');
    expect(pruneSelection({ olderThan: '30d' }, now)).toEqual({
      selection: { olderThan: '2026-03-01T00:00:00.000Z' },
      described: 'runs started before 2026-03-01T00:00:00.000Z',
    });
  });

  test('neither, both, or a bad number is a usage error naming the flag', () => {
    expect(() => pruneSelection({}, now)).toThrow(UsageError);
    expect(() => pruneSelection({}, now)).toThrow(
      /^--keep-runs or --older-than: choose what to delete with exactly one of/,
    );
    expect(() => pruneSelection({ keepRuns: '1', olderThan: '1d' }, now)).toThrow(/^--keep-runs: choose/);
    expect(() => pruneSelection({ keepRuns: '2.5' }, now)).toThrow('--keep-runs: must be a whole number');
    expect(() => pruneSelection({ keepRuns: '' }, now)).toThrow('--keep-runs: must be a whole number');
  });
});

describe('runPruneCommand', () => {
  test('prunes the database --results-db names and prints the report; a dry run first changes nothing', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'm3-prune-cli-'));
    const path = join(cwd, '.m3', 'executions.sqlite');
    const store = new SQLiteExecutionStore(path);
    for (const [runId, startedAt] of [
      ['run-old', '2026-01-01T00:00:00.000Z'],
      ['run-new', '2026-03-30T00:00:00.000Z'],
    ]) {
      await store.saveRun({
        runId: runId!,
        label: null,
        startedAt: startedAt!,
        finishedAt: startedAt!,
        status: 'passed',
        argv: [],
        counts: { passed: 0, failed: 0, skipped: 0, todo: 0 },
      });
    }
    await store.close();

    const dry = captureIO(cwd);
    expect(await runPruneCommand({ olderThan: '30d', dryRun: true }, dry, now)).toBe(0);
    expect(dry.out.join('')).toContain('would prune 1 run, 0 executions, 0 evaluations:\n  run-old\n');
    const io = captureIO(cwd);
    expect(await runPruneCommand({ olderThan: '30d', json: true }, io, now)).toBe(0);
    expect(JSON.parse(io.out.join(''))).toMatchObject({
      resultsDb: '.m3/executions.sqlite',
      selection: { olderThan: '2026-03-01T00:00:00.000Z' },
      dryRun: false,
      runIds: ['run-old'],
    });
    const reader = new SQLiteExecutionStore(path, { readOnly: true });
    expect((await reader.listRuns()).map((r) => r.runId)).toEqual(['run-new']);
    await reader.close();
    await expect(runPruneCommand({ keepRuns: '1', resultsDb: 'missing.sqlite' }, captureIO(cwd), now)).rejects.toThrow(
      /--results-db: no results database at .*missing\.sqlite/,
    );
  });
});
