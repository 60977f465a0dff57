import { InMemoryExecutionStore, Redactor } from '@sf-m3/core';
import { apiPaths } from '../../ui/api/apiPaths';
import type { ExecutionPage } from '../../ui/api/executionPage';
import { ViewerApi } from '../../ui/api/ViewerApi';
import { collectBudgetedReport, collectReportData } from './collectReportData';
import { HUNDRED_TEST_RUN, seedGeneratedRun, type GeneratedRun } from './generatedRun.testkit';

jest.setTimeout(60_000);

let api: ViewerApi;
let run: GeneratedRun;

beforeAll(async () => {
  const store = new InMemoryExecutionStore();
  run = await seedGeneratedRun(store, { ...HUNDRED_TEST_RUN, tests: 12, failing: 2, history: 1 });
  api = new ViewerApi(store, { redactor: new Redactor([]), resultsDb: 'mem', cwd: '/project' });
});

const longestString = (page: unknown): number => {
  let longest = 0;
  JSON.stringify(page, (_key, value: unknown) => {
    if (typeof value === 'string') longest = Math.max(longest, value.length);
    return value;
  });
  return longest;
};

describe('collectBudgetedReport', () => {
  test('without a budget every execution is embedded whole', async () => {
    const responses = await collectReportData(api, run.runId);
    for (const id of run.executionIds) {
      const page = responses[apiPaths.execution(id)] as ExecutionPage;
      expect(longestString(page)).toBeGreaterThan(HUNDRED_TEST_RUN.resultBytes);
    }
  });

  test('a tight budget keeps the failed tests’ executions and leaves passing ones out, counting them', async () => {
    const report = await collectBudgetedReport(api, run.runId, 150_000);
    const failed = run.executionIds.slice(0, 2);
    for (const id of failed) {
      const page = report.responses[apiPaths.execution(id)] as ExecutionPage;
      expect(page.execution.outcome).toBe('failed');
      expect(longestString(page)).toBeLessThan(1100); // values cut at 1000 characters, plus the note
    }
    const passing = run.executionIds.slice(2);
    const embedded = passing.filter((id) => apiPaths.execution(id) in report.responses);
    expect(report.omitted.executions).toBe(passing.length - embedded.length);
    expect(report.omitted.executions).toBeGreaterThan(0);
    expect(report.summarizedExecutions).toBe(failed.length + embedded.length); // every embedded one was cut
    expect(report.usedBytes).toBeLessThanOrEqual(report.budgetBytes);
  });
});
