// The static report of a 100-test run stays under 1 MB (issue 27): the run, every failed test's
// execution and as many others as fit are embedded; the rest of the evidence is left to `m3 ui`.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InMemoryExecutionStore, Redactor } from '@sf-m3/core';
import { apiPaths } from '../../ui/api/apiPaths';
import { ViewerApi } from '../../ui/api/ViewerApi';
import { HUNDRED_TEST_RUN, seedGeneratedRun, type GeneratedRun } from './generatedRun.testkit';
import { REPORT_MAX_BYTES, writeHtmlReport } from './writeHtmlReport';

jest.setTimeout(120_000);

let dir: string;
let api: ViewerApi;
let run: GeneratedRun;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'm3-report-size-'));
  const store = new InMemoryExecutionStore();
  run = await seedGeneratedRun(store, HUNDRED_TEST_RUN);
  api = new ViewerApi(store, { redactor: new Redactor([]), resultsDb: 'mem', cwd: '/project' });
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

function embedded(html: string): { responses: Record<string, unknown>; omitted: Record<string, number> } {
  const block = /<script type="application\/json" id="m3-data">([^]*?)<\/script>/.exec(html)![1]!;
  return JSON.parse(block) as { responses: Record<string, unknown>; omitted: Record<string, number> };
}

describe('the static HTML report of a generated 100-test run', () => {
  test('is at most 1 MB and still holds the run, its failed tests and every failed execution', async () => {
    const written = await writeHtmlReport(api, run.runId, dir);
    const html = readFileSync(written.indexPath, 'utf8');
    expect(Buffer.byteLength(html)).toBe(written.bytes);
    expect(written.bytes).toBeLessThanOrEqual(REPORT_MAX_BYTES);
    const data = embedded(html);
    expect(data.responses).toHaveProperty([apiPaths.run(run.runId)]);
    const page = data.responses[apiPaths.run(run.runId)] as {
      failedTests: { fullName: string; executions: { executionId: string }[] }[];
    };
    expect(page.failedTests.map((t) => t.fullName)).toEqual(run.failedTests);
    for (const test of page.failedTests) {
      for (const e of test.executions) expect(data.responses).toHaveProperty([apiPaths.execution(e.executionId)]);
    }
    // Something had to give: what was left out is counted so the page can say so.
    const left = Object.values(data.omitted).reduce((n, v) => n + v, 0);
    expect(left).toBeGreaterThan(0);
  });
});
