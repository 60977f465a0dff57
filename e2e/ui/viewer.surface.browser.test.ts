// End-to-end: surface coverage (contract §25) in a real browser. The ui-surface fixture runs twice
// through the real `m3` CLI against the example server (the second run calls more tools, one of
// which always answers isError); then headless Chromium opens `m3 ui` and the static report and
// checks the run view's surface table and the trends view's surface chart. Screenshots go to
// test-output/ui/surface-*.png.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Page } from 'puppeteer-core';
import { copyFixture, ensureBuilt, printedRunId, removeFixture, runM3, runM3Async } from '../cli.testkit';
import {
  chromiumPath,
  launchBrowser,
  screenshotPath,
  serveM3,
  type ServingM3,
  type TestBrowser,
} from './viewer.testkit';

jest.setTimeout(600_000);

let folder: string;
let firstRunId: string;
let secondRunId: string;
let chromium: TestBrowser;

beforeAll(async () => {
  ensureBuilt();
  if (!existsSync(chromiumPath))
    throw new Error(`no Chromium at ${chromiumPath}: run \`apt-get install chromium\` (.ci/run does)`);
  folder = copyFixture('ui-surface');
  const first = await runM3Async(['test'], folder, {}, 300_000);
  expect([first.status, first.stderr]).toEqual([0, expect.any(String)]);
  firstRunId = printedRunId(first.stdout);
  const second = await runM3Async(['test'], folder, { UI_SURFACE_SECOND_RUN: '1' }, 300_000);
  expect([second.status, second.stderr]).toEqual([0, expect.any(String)]);
  secondRunId = printedRunId(second.stdout);
  chromium = await launchBrowser();
});

afterAll(async () => {
  await chromium?.close();
  if (folder) removeFixture(folder);
});

async function freshPage(): Promise<{ page: Page; problems: string[]; requests: string[] }> {
  const context = await chromium.browser.createBrowserContext();
  const page = await context.newPage();
  const problems: string[] = [];
  const requests: string[] = [];
  page.on('pageerror', (error) => problems.push(`page error: ${String(error)}`));
  page.on('request', (request) => requests.push(request.url()));
  return { page, problems, requests };
}

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

async function inkedCanvas(page: Page, scope: string): Promise<boolean> {
  await page.waitForSelector(`${scope} canvas`);
  return page.$eval(`${scope} canvas`, (canvas) => {
    const c = canvas as HTMLCanvasElement;
    const pixels = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
    for (let i = 3; i < pixels.length; i += 4) if (pixels[i]! > 0) return true;
    return false;
  });
}

/** Checks the trends view's surface chart and its table: one row per run, rising. */
async function expectSurfaceTrend(page: Page): Promise<void> {
  await page.waitForSelector('[data-testid=surface-trend-table] tbody tr');
  expect(await inkedCanvas(page, '[data-testid=surface-trend-chart]')).toBe(true);
  const rows = await page.$$eval('[data-testid=surface-trend-table] tbody tr', (trs) =>
    trs.map((r) => Array.from(r.querySelectorAll('td')).map((td) => td.textContent ?? '')),
  );
  expect(rows.map((r) => r[0])).toEqual([firstRunId, secondRunId]);
  expect(rows[0]![1]).toMatch(/^1\/\d+ /);
  expect(rows[1]![1]).toMatch(/^3\/\d+ /);
  expect(rows[1]![2]).toMatch(/^2\/\d+ /);
}

describe('surface coverage in m3 ui', () => {
  let ui: ServingM3;
  beforeAll(async () => {
    ui = await serveM3(['ui', '--no-open'], folder);
  });
  afterAll(async () => {
    if (ui) expect(await ui.stop()).toBe(0);
  });

  test('the run view has a surface table per server; the trends view charts tools called and succeeded', async () => {
    const { page, problems } = await freshPage();
    await page.goto(ui.url); // sets the token cookie and lands on the runs view
    await page.waitForSelector('[data-testid=runs-table]');
    await page.goto(`${new URL(ui.url).origin}/#/runs/${secondRunId}`);
    await expectSecondRunSurface(page);
    const surface = await page.$('#surface');
    await surface!.screenshot({ path: screenshotPath('surface-run') });

    await page.goto(`${new URL(ui.url).origin}/#/trends`);
    await expectSurfaceTrend(page);
    const trend = await page.$('#surface-trends');
    await trend!.screenshot({ path: screenshotPath('surface-trends') });
    expect(problems).toEqual([]);
  });
});

describe('surface coverage in m3 report --html', () => {
  let out: string;
  beforeAll(() => {
    out = mkdtempSync(join(tmpdir(), 'm3-ui-surface-report-'));
  });
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  test('the static page carries the same table and trend, from disk with no network', async () => {
    const report = runM3(['report', secondRunId, '--html', out], folder);
    expect(report.status).toBe(0);
    const html = readFileSync(join(out, 'index.html'), 'utf8');
    expect(html).toContain('/surface');
    const { page, problems, requests } = await freshPage();
    await page.goto(pathToFileURL(join(out, 'index.html')).href);
    await expectSecondRunSurface(page);
    await page.screenshot({ path: screenshotPath('surface-static-run'), fullPage: true });
    await page.goto(`${pathToFileURL(join(out, 'index.html')).href}#/trends`);
    await expectSurfaceTrend(page);
    expect(requests.filter((url) => !url.startsWith('file:') && !url.startsWith('data:'))).toEqual([]);
    expect(problems).toEqual([]);
  });
});
