// End-to-end: executions served by a cassette (contract §24) are marked in the viewer and the HTML
// report, in a real browser. One run with a replayed, a recorded and a live execution is stored
// through the store's own finish (the snapshot's `metadata.cassette` becomes the label the mark
// reads); `m3 ui` and `m3 report --html` are then driven by headless Chromium.
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ExecutionStore } from '@sf-m3/core';
import type { Page } from 'puppeteer-core';
import { SQLiteExecutionStore } from '@sf-m3/store-sqlite';
import { attemptRecord, executionRecord } from '../../packages/core/src/store/storeFixtures.testkit';
import { buildNativeTrace } from '../../packages/cli/src/ui/nativeRuns.testkit';
import { ensureBuilt, runM3 } from '../cli.testkit';
import {
  chromiumPath,
  launchBrowser,
  screenshotPath,
  serveM3,
  type ServingM3,
  type TestBrowser,
} from './viewer.testkit';

jest.setTimeout(300_000);

const runId = 'run-cassettes';
/** Execution id → how a cassette served it (null: live, no cassette). */
const uses = { 'exec-replayed': 'replayed', 'exec-recorded': 'recorded', 'exec-live': null } as const;

let folder: string;
let viewer: ServingM3;
let chromium: TestBrowser;

async function seed(store: ExecutionStore): Promise<void> {
  await store.saveRun({
    runId,
    label: null,
    startedAt: '2026-12-04T09:00:00.000Z',
    finishedAt: '2026-12-04T09:05:00.000Z',
    status: 'passed',
    argv: [],
    counts: { passed: 3, failed: 0, skipped: 0, todo: 0 },
  });
  let minute = 0;
  for (const [executionId, use] of Object.entries(uses)) {
    minute += 1;
    const createdAt = `2026-12-04T09:0${minute}:00.000Z`;
    const labels = {
      harness: 'claude_code',
      model: 'gpt-4o-mini',
      trial: String(minute),
      server: 'shop',
      metadata: {},
    };
    const execution = executionRecord({
      executionId,
      runId,
      suiteName: 'cassettes',
      caseId: 'quote',
      kind: 'agent',
      createdAt,
      labels: labels as never,
    });
    const attempt = attemptRecord({ runId, fullName: `cassettes quote ${minute}`, executionIds: [executionId] });
    await store.saveAttempt(attempt);
    await store.createExecution({ ...execution, attemptId: attempt.attemptId });
    const trace = buildNativeTrace({
      executionId,
      runtime: 'claude_code',
      session: { model: 'gpt-4o-mini' },
      usage: { inputTokens: 10 },
      tools: [],
      reasoning: { text: 'quote it' },
    });
    await store.finishExecution({
      executionId,
      outcome: 'completed',
      finishedAt: createdAt,
      snapshot: { lifecycle: 'finished', ...(use === null ? {} : { metadata: { cassette: use } }) },
      trace,
      evidence: [],
    });
  }
}

beforeAll(async () => {
  ensureBuilt();
  if (!existsSync(chromiumPath))
    throw new Error(`no Chromium at ${chromiumPath}: run \`apt-get install chromium\` (.ci/run does)`);
  folder = mkdtempSync(join(tmpdir(), 'm3-ui-cassettes-'));
  mkdirSync(join(folder, '.m3'));
  const store = new SQLiteExecutionStore(join(folder, '.m3', 'executions.sqlite'));
  try {
    await seed(store);
  } finally {
    await store.close();
  }
  viewer = await serveM3(['ui', '--no-open'], folder);
  chromium = await launchBrowser();
});

afterAll(async () => {
  await chromium?.close();
  if (viewer && viewer.child.exitCode === null) await viewer.stop();
  if (folder) rmSync(folder, { recursive: true, force: true });
});

async function freshPage(): Promise<{ page: Page; problems: string[] }> {
  const context = await chromium.browser.createBrowserContext();
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`page error: ${String(error)}`));
  return { page, problems };
}

/** The run view's executions table as `execution id → cassette mark shown` (null: none). */
async function marksInRunView(page: Page, url: string): Promise<Record<string, string | null>> {
  await page.goto(`${url.replace(/#.*$/, '')}#/runs/${runId}`);
  await page.waitForSelector('[data-testid=executions] tbody tr');
  return page.$$eval('[data-testid=executions] tbody tr', (rows) =>
    Object.fromEntries(
      rows.map((row) => [
        row.querySelector('a')?.textContent ?? '',
        row.querySelector('[data-testid=cassette-mark]')?.textContent ?? null,
      ]),
    ),
  );
}

/** The execution view's header mark (null: none), and its tooltip. */
async function markInExecutionView(page: Page, url: string, executionId: string) {
  await page.goto(`${url.replace(/#.*$/, '')}#/executions/${executionId}`);
  await page.waitForSelector('[data-testid=labels]');
  return page.$eval('h1', (h1) => {
    const mark = h1.querySelector('[data-testid=cassette-mark]');
    return { text: mark?.textContent ?? null, title: mark?.getAttribute('title') ?? null };
  });
}

async function expectMarks(page: Page, url: string): Promise<void> {
  expect(await marksInRunView(page, url)).toEqual({
    'exec-replayed': 'replayed',
    'exec-recorded': 'recorded',
    'exec-live': null,
  });
  const replayed = await markInExecutionView(page, url, 'exec-replayed');
  expect(replayed).toEqual({ text: 'replayed', title: expect.stringContaining('no model was called in this run') });
  expect((await markInExecutionView(page, url, 'exec-recorded')).text).toBe('recorded');
  expect((await markInExecutionView(page, url, 'exec-live')).text).toBeNull();
}

describe('m3 ui marks executions a cassette served', () => {
  test('the run view and the execution view show replayed and recorded, and nothing on a live execution', async () => {
    const { page, problems } = await freshPage();
    await page.goto(viewer.url);
    await expectMarks(page, page.url());
    await markInExecutionView(page, page.url(), 'exec-replayed');
    await page.screenshot({ path: screenshotPath('cassette-execution') });
    await marksInRunView(page, page.url());
    await page.screenshot({ path: screenshotPath('cassette-run'), fullPage: true });
    expect(problems).toEqual([]);
  });
});

describe('m3 report --html marks executions a cassette served', () => {
  let out: string;
  beforeAll(() => {
    out = mkdtempSync(join(tmpdir(), 'm3-ui-cassettes-report-'));
  });
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  test('the static page shows the same marks', async () => {
    const report = runM3(['report', runId, '--html', out], folder);
    expect(report.stderr).toContain(`wrote the HTML report of ${runId}`);
    const { page, problems } = await freshPage();
    await expectMarks(page, pathToFileURL(join(out, 'index.html')).href);
    expect(problems).toEqual([]);
  });
});
