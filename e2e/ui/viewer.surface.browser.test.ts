// End-to-end: surface coverage (contract §25) in a real browser. The ui-surface fixture runs twice
// through the real `m3` CLI against the example server (the second run, as `m3 test --ui`, calls
// more tools, one of which always answers isError); then one headless Chromium page opens the
// viewer that run serves and the static report, and checks the run view's surface table and the
// trends view's surface chart. Screenshots go to test-output/ui/surface-*.png.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Page } from 'puppeteer-core';
import { copyFixture, printedRunId, removeFixture, runM3, runM3Async } from '../cli.testkit';
import {
  canvasInk,
  prepareViewerTests,
  screenshotPath,
  serveM3,
  serveWithBrowser,
  type ServingM3,
  type TestBrowser,
  reportFolderPerDescribe,
} from './viewer.testkit';

jest.setTimeout(600_000);

let folder: string;
let firstRunId: string;
let secondRunId: string;
let chromium: TestBrowser;
let viewer: ServingM3;

beforeAll(async () => {
  prepareViewerTests();
  folder = copyFixture('ui-surface');
  const first = await runM3Async(['test'], folder, {}, 300_000);
  expect([first.status, first.stderr]).toEqual([0, expect.any(String)]);
  firstRunId = printedRunId(first.stdout);
  ({ viewer, chromium } = await serveWithBrowser(serveM3(['test', '--ui'], folder, { UI_SURFACE_SECOND_RUN: '1' })));
  secondRunId = printedRunId(viewer.output());
});

afterAll(async () => {
  await chromium?.close();
  if (viewer && viewer.child.exitCode === null) await viewer.stop();
  if (folder) removeFixture(folder);
});

/** The surface table of the shown run, as rows of cell texts. */
async function surfaceRows(page: Page): Promise<string[][]> {
  await page.waitForSelector('[data-testid=surface-table] tbody tr');
  return page.$$eval('[data-testid=surface-table] tbody tr', (rows) =>
    rows.map((r) => Array.from(r.querySelectorAll('td')).map((td) => td.textContent ?? '')),
  );
}

/** Checks the second run's surface section: the table, the lists and the measures line. */
async function expectSecondRunSurface(page: Page): Promise<void> {
  const rows = await surfaceRows(page);
  const byTool = new Map(rows.map((r) => [r[0], r]));
  expect(byTool.get('shipping_quote')?.slice(0, 5)).toEqual([
    'shipping_quote',
    '2',
    '2',
    '2/2',
    '2/3never: zone="international"',
  ]);
  expect(byTool.get('always_fails')?.slice(0, 3)).toEqual(['always_fails', '1', '0']);
  expect(byTool.get('get_order')?.slice(0, 3)).toEqual(['get_order', '0', '0']);
  const section = await page.$eval('#surface', (el) => el.textContent ?? '');
  expect(section).toContain('Server example-mcp');
  expect(section).toMatch(/never called \(\d+\): [^]*get_order/);
  expect(section).toContain('called, never succeeded (1): always_fails');
  const measures = await page.$eval('[data-testid=surface-measures]', (el) => el.textContent ?? '');
  expect(measures).toMatch(/^tools called 3\/\d+ \(\d+\.\d%\) · tools succeeded 2\/\d+ /);
}

/** Checks the trends view's surface chart and its table: one row per run, rising. */
async function expectSurfaceTrend(page: Page): Promise<void> {
  await page.waitForSelector('[data-testid=surface-trend-table] tbody tr');
  expect((await canvasInk(page, '[data-testid=surface-trend-chart]')).inked).toBe(true);
  const rows = await page.$$eval('[data-testid=surface-trend-table] tbody tr', (trs) =>
    trs.map((r) => Array.from(r.querySelectorAll('td')).map((td) => td.textContent ?? '')),
  );
  expect(rows.map((r) => r[0])).toEqual([firstRunId, secondRunId]);
  expect(rows[0]![1]).toMatch(/^1\/\d+ /);
  expect(rows[1]![1]).toMatch(/^3\/\d+ /);
  expect(rows[1]![2]).toMatch(/^2\/\d+ /);
}

describe('surface coverage in m3 test --ui', () => {
  test('the run view has a surface table per server; the trends view charts tools called and succeeded', async () => {
    const { page, problems } = await chromium.page();
    expect(viewer.url).toMatch(new RegExp(`#/runs/${secondRunId}$`));
    await page.goto(viewer.url); // sets the token cookie and lands on the new run
    await expectSecondRunSurface(page);
    const surface = await page.$('#surface');
    await surface!.screenshot({ path: screenshotPath('surface-run') });

    await page.goto(`${new URL(viewer.url).origin}/#/trends`);
    await expectSurfaceTrend(page);
    const trend = await page.$('#surface-trends');
    await trend!.screenshot({ path: screenshotPath('surface-trends') });
    expect(problems).toEqual([]);
  });

  test('Ctrl-C stops the viewer and m3 test exits 0: the second run passed', async () => {
    expect([await viewer.stop(), viewer.output()]).toEqual([0, expect.stringContaining('verdict     passed')]);
  });
});

describe('surface coverage in m3 report --html', () => {
  const reportFolder = reportFolderPerDescribe('m3-ui-surface-report-');

  test('the static page carries the same table and trend, from disk with no network', async () => {
    const report = runM3(['report', secondRunId, '--html', reportFolder()], folder);
    expect(report.status).toBe(0);
    const html = readFileSync(join(reportFolder(), 'index.html'), 'utf8');
    expect(html).toContain('/surface');
    const { page, problems, requests } = await chromium.page();
    await page.goto(pathToFileURL(join(reportFolder(), 'index.html')).href);
    await expectSecondRunSurface(page);
    await page.screenshot({ path: screenshotPath('surface-static-run'), fullPage: true });
    await page.goto(`${pathToFileURL(join(reportFolder(), 'index.html')).href}#/trends`);
    await expectSurfaceTrend(page);
    expect(requests.filter((url) => !url.startsWith('file:') && !url.startsWith('data:'))).toEqual([]);
    expect(problems).toEqual([]);
  });
});
