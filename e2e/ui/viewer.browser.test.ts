// End-to-end: the viewer in a real browser. The ui-run fixture is run twice through the real `m3`
// CLI: first its agent suite alone (the baseline the second run's evaluator rates are compared
// with), then everything as `m3 test --ui`, with a test that fails with markup in its message.
// One headless Chromium drives the served viewer and the static report: run → execution → back, a
// trace with a wire/reported conflict, charts rendered, stored markup shown as text, token and
// Host checks refused. Screenshots of every view go to test-output/ui/.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Page } from 'puppeteer-core';
import { copyFixture, printedRunId, removeFixture, runM3, runM3Async } from '../cli.testkit';
import {
  canvasInk,
  prepareViewerTests,
  rawRequest,
  screenshotPath,
  serveM3,
  serveWithBrowser,
  type ServingM3,
  type TestBrowser,
  type WatchedPage,
  reportFolderPerDescribe,
} from './viewer.testkit';

jest.setTimeout(600_000);

let folder: string;
let firstRunId: string;
let secondRunId: string;
let viewer: ServingM3;
let chromium: TestBrowser;

beforeAll(async () => {
  prepareViewerTests();
  folder = copyFixture('ui-run');
  const first = await runM3Async(['test', 'tests/agents.test.js'], folder, {}, 300_000);
  expect(first.status).toBe(0);
  firstRunId = printedRunId(first.stdout);
  ({ viewer, chromium } = await serveWithBrowser(serveM3(['test', '--ui'], folder, { UI_FIXTURE_SECOND_RUN: '1' })));
  secondRunId = printedRunId(viewer.output());
});

afterAll(async () => {
  await chromium?.close();
  if (viewer && viewer.child.exitCode === null) await viewer.stop();
  if (folder) removeFixture(folder);
});

/** The reused page, opened on the printed viewer URL (the token URL sets the cookie, then the new run shows). */
async function viewerPage(): Promise<WatchedPage> {
  const watched = await chromium.page();
  await watched.page.goto(viewer.url);
  return watched;
}

/** Follows a link by its visible text inside `scope`. */
async function clickLink(page: Page, scope: string, text: string): Promise<void> {
  await page.waitForSelector(scope);
  const clicked = await page.$$eval(
    `${scope} a`,
    (links, wanted) => {
      const link = links.find((a) => a.textContent?.includes(wanted as string));
      (link as HTMLAnchorElement | undefined)?.click();
      return link !== undefined;
    },
    text,
  );
  if (!clicked) throw new Error(`no link "${text}" in ${scope}`);
}

/** The href of the misreporting agent's first execution, from the run view's execution list. */
async function misreportingExecutionLink(page: Page): Promise<string> {
  await page.waitForSelector('[data-testid=executions] tbody tr');
  const href = await page.$$eval('[data-testid=executions] tbody tr', (rows) =>
    rows
      .find((r) => r.textContent?.includes('misreporting / 1'))
      ?.querySelector('a')
      ?.getAttribute('href'),
  );
  if (!href) throw new Error('the run view lists no misreporting execution');
  return href;
}

/** Checks the execution view of the misreporting agent: the conflict, and its markup as text. */
async function expectConflictView(page: Page): Promise<void> {
  await page.waitForSelector('[data-testid=conflicts]');
  const conflict = await page.$eval('[data-testid=conflicts]', (el) => el.textContent ?? '');
  expect(conflict).toContain('arguments');
  expect(conflict).toContain('"weight_kg": 2');
  expect(conflict).toContain('"weight_kg": 5');
  // The reported zone is HTML; it is shown as text, and no element was made from it.
  expect(conflict).toContain('"zone": "<img src=x onerror=\\"window.__m3Injected=1\\">"');
  expect(await page.$$('[data-testid=tool-calls] img')).toHaveLength(0);
  expect(await page.evaluate(() => (window as unknown as { __m3Injected?: number }).__m3Injected)).toBeUndefined();
  const policy = await page.$eval('[data-testid=policy]', (el) => el.textContent ?? '');
  expect(policy).toContain('allowed');
  const said = await page.$eval('[data-testid=messages]', (el) => el.textContent ?? '');
  expect(said).toContain('quoted local');
}

/**
 * What a user looking for the failure sees on the first screen (900 px): every failed test, its
 * message, the failed m3 assertion named by its call site, and a link to its execution, above the
 * run's tables.
 */
async function expectFailuresFirst(page: Page): Promise<void> {
  await page.waitForSelector('[data-testid=failed-tests]');
  const shown = await page.$$eval('[data-testid=failed-test]', (items) =>
    items.map((li) => ({
      text: li.textContent ?? '',
      bottom: li.getBoundingClientRect().bottom + window.scrollY,
      links: Array.from(li.querySelectorAll('a')).map((a) => a.getAttribute('href') ?? ''),
    })),
  );
  const fold = await page.evaluate(() => window.innerHeight);
  const suites = await page.$$eval('h2', (heads) => {
    const head = heads.find((h) => h.textContent === 'Suites');
    return head ? head.getBoundingClientRect().top + window.scrollY : 0;
  });
  expect(shown.map((f) => f.text)).toEqual([
    expect.stringContaining('a failure message with markup'),
    expect.stringContaining('a quote for the wrong zone is caught'),
  ]);
  for (const failed of shown) {
    expect(failed.bottom).toBeLessThan(fold);
    expect(failed.bottom).toBeLessThan(suites);
  }
  const wrongZone = shown[1]!;
  expect(wrongZone.text).toContain('shipping_quote');
  expect(wrongZone.text).toMatch(/m3\.expect\.toHaveToolCall\s*failed\s*tests\/direct\.test\.js:\d+/);
  // …and by the arguments the assertion was given (saved by the matcher with its verdict).
  expect(wrongZone.text).toContain('"shipping_quote", {"arguments":{"weight_kg":2,"zone":"far"}}');
  expect(wrongZone.links.some((href) => href.startsWith('#/executions/exec-'))).toBe(true);
  // The suite name is not repeated in the case: "ui direct › a quote…", not "ui direct::ui direct a quote…".
  expect(wrongZone.text).toContain('ui direct › a quote for the wrong zone is caught');
}

describe('m3 test --ui serves the new run after Jest finishes', () => {
  test('the printed URL opens on the new run; the runs view lists both runs with a drawn trend line', async () => {
    expect(viewer.url).toMatch(new RegExp(`#/runs/${secondRunId}$`));
    const { page, problems } = await chromium.freshPage(); // a first visit: no cookie yet
    await page.goto(viewer.url);
    await page.waitForSelector('[data-testid=attempts]');
    expect(page.url()).not.toContain('token='); // the token moved into the HttpOnly cookie
    expect(await page.evaluate(() => document.cookie)).toBe('');
    expect(await page.$eval('h1', (h) => h.textContent)).toContain(secondRunId);

    await clickLink(page, '.crumbs', 'all runs');
    await page.waitForSelector('[data-testid=runs-table]');
    const runs = await page.$eval('[data-testid=runs-table]', (t) => t.textContent ?? '');
    expect(runs).toContain(firstRunId);
    expect(runs).toContain(secondRunId);
    const chart = await canvasInk(page, '[data-testid=runs-trend]');
    expect(chart.width).toBeGreaterThan(100);
    expect(chart.inked).toBe(true);
    await page.screenshot({ path: screenshotPath('runs'), fullPage: true });
    expect(problems).toEqual([]);
  });

  test('run → execution with a wire/reported conflict → back to the run; markup in a failure message stays text', async () => {
    const { page, problems } = await viewerPage();
    await page.waitForSelector('[data-testid=attempts]');
    const attempts = await page.$eval('[data-testid=attempts]', (t) => t.textContent ?? '');
    expect(attempts).toContain('<script>window.__m3Injected=2</script><b id="m3-injected">bold?</b> stays text');
    expect(await page.$('#m3-injected')).toBeNull();
    const evaluators = await page.$eval('[data-testid=evaluators]', (t) => t.textContent ?? '');
    expect(evaluators).toContain('ui.report_matches_wire.v1');
    expect(evaluators).toContain('50.0%');
    expect(await page.$eval('[data-testid=baseline]', (t) => t.textContent ?? '')).toContain(
      'ui.report_matches_wire.v1',
    );
    await page.screenshot({ path: screenshotPath('run'), fullPage: true });
    await page.screenshot({ path: screenshotPath('run-top') });
    await expectFailuresFirst(page);

    const link = await misreportingExecutionLink(page);
    await page.click(`[data-testid=executions] a[href="${link}"]`);
    await expectConflictView(page);
    await page.screenshot({ path: screenshotPath('execution'), fullPage: true });
    await page.screenshot({ path: screenshotPath('execution-top') });

    await page.click('[data-testid=back-to-run]');
    await page.waitForSelector('[data-testid=attempts]');
    expect(page.url()).toMatch(new RegExp(`#/runs/${secondRunId}$`));
    await page.goBack();
    await page.waitForSelector('[data-testid=conflicts]');
    expect(page.url()).toContain(link);
    expect(problems).toEqual([]);
  });

  test('a passing test’s expected protocol error: the failed execution says why and that the test expected it', async () => {
    const { page, problems } = await viewerPage();
    await page.waitForSelector('[data-testid=raised-in-passing-test]');
    const row = await page.$$eval('[data-testid=executions] tbody tr', (rows) => {
      const found = rows.find((r) => r.querySelector('[data-testid=raised-in-passing-test]'));
      return { text: found?.textContent ?? '', href: found?.querySelector('a')?.getAttribute('href') ?? '' };
    });
    expect(row.text).toContain('an operation raised, as the passing test expected');
    expect(row.text).toContain('protocol_error: MCP protocol operation failed: prompts/get');
    await page.click(`[data-testid=executions] a[href="${row.href}"]`);
    await page.waitForSelector('[data-testid=failure-reason]');
    const reason = await page.$eval('[data-testid=failure-reason]', (el) => el.textContent ?? '');
    expect(reason).toContain('Why failed: protocol_error MCP protocol operation failed: prompts/get');
    expect(reason).toContain('The test passed: 1 operation raised inside it, as the test expected');
    expect(reason).toContain('an unknown prompt is a protocol error, as expected');
    const trace = await page.$eval('[data-testid=trace-completeness]', (el) => el.textContent ?? '');
    expect(trace).toContain('capture_incomplete: recorded by the MCP client, not on the wire');
    await page.screenshot({ path: screenshotPath('execution-expected-error'), fullPage: true });
    expect(problems).toEqual([]);
  });

  test('a direct tool call shows the wire only: no reported side, no "harness_unsupported"', async () => {
    const { page, problems } = await viewerPage();
    await page.waitForSelector('[data-testid=executions] tbody tr');
    const href = await page.$$eval('[data-testid=executions] tbody tr', (rows) =>
      rows
        .find((r) => r.textContent?.includes('direct') && r.textContent?.includes('completed'))
        ?.querySelector('a')
        ?.getAttribute('href'),
    );
    if (!href) throw new Error('the run view lists no completed direct execution');
    await page.click(`[data-testid=executions] a[href="${href}"]`);
    await page.waitForSelector('[data-testid=tool-call]');
    const calls = await page.$eval('[data-testid=tool-calls]', (el) => el.textContent ?? '');
    expect(calls).toContain('direct call');
    expect(calls).toContain('Wire');
    expect(calls).not.toContain('Reported');
    expect(calls).not.toContain('harness_unsupported');
    expect(calls).not.toContain('the agent did not report it');
    expect(await page.$('[data-testid=failure-reason]')).toBeNull();
    expect(problems).toEqual([]);
  });

  test('raw evidence reads through the verifying reader', async () => {
    const { page } = await viewerPage();
    const link = await misreportingExecutionLink(page);
    await page.click(`[data-testid=executions] a[href="${link}"]`);
    await page.waitForSelector('#evidence button');
    await page.click('#evidence button');
    await page.waitForSelector('[data-testid=evidence]');
    expect(await page.$eval('[data-testid=evidence]', (e) => e.textContent ?? '')).toMatch(
      /sha256 [0-9a-f]{64} verified/,
    );
  });

  test('trends per configuration (metadata.harness_config) are charted with their intervals', async () => {
    const { page, problems } = await viewerPage();
    await page.waitForSelector('[data-testid=attempts]');
    await clickLink(page, 'header.top nav', 'Trends');
    await page.waitForSelector('[data-testid=trend-table]');
    await page.select('[data-testid=trend-group]', 'metadata.harness_config');
    await page.waitForFunction(() =>
      document.querySelector('[data-testid=trend-table]')?.textContent?.includes('acp:misreporting'),
    );
    const table = await page.$eval('[data-testid=trend-table]', (t) => t.textContent ?? '');
    expect(table).toMatch(/ui\.report_matches_wire\.v1 · acp:misreporting.*0\.0% \[0\.0%, 65\.8%\] 0\/2/);
    expect(table).toMatch(/ui\.report_matches_wire\.v1 · acp:honest.*100\.0% \[34\.2%, 100\.0%\] 2\/2/);
    const chart = await canvasInk(page, '[data-testid=trend-chart]');
    expect(chart.inked).toBe(true);
    await page.select('[data-testid=trend-evaluator]', 'ui.report_matches_wire.v1');
    expect(await page.$$('[data-testid=trend-chart]')).toHaveLength(1);
    const filtered = await page.$eval('[data-testid=trend-table]', (t) => t.textContent ?? '');
    expect(filtered).toContain('acp:misreporting');
    expect(filtered).not.toContain('m3.expect.toBeCompleted');
    await page.screenshot({ path: screenshotPath('trends'), fullPage: true });
    await page.select('[data-testid=trend-bucket]', 'time.day');
    await page.waitForFunction(() =>
      /\d{4}-\d{2}-\d{2}/.test(document.querySelector('[data-testid=trend-table]')?.textContent ?? ''),
    );
    expect(problems).toEqual([]);
  });

  test('the browser is refused without the token and under a foreign Host', async () => {
    const { page } = await chromium.freshPage(); // no token cookie
    const origin = new URL(viewer.url).origin;
    const bare = await page.goto(`${origin}/#/runs/${secondRunId}`);
    expect(bare?.status()).toBe(401);
    expect(await page.content()).not.toContain(secondRunId);
    const wrong = await page.goto(`${origin}/?token=not-the-token`);
    expect(wrong?.status()).toBe(403);
    const api = await page.goto(`${origin}/api/runs`);
    expect(api?.status()).toBe(401);
    // evil.test resolves to 127.0.0.1 (DNS rebinding): the real token, but a foreign Host.
    const rebound = await page.goto(viewer.url.replace('127.0.0.1', 'evil.test'));
    expect(rebound?.status()).toBe(400);
    await page.screenshot({ path: screenshotPath('refused-host') });
  });

  test("Ctrl-C stops the viewer and m3 test exits with the run's own status (1: a test failed)", async () => {
    const status = await viewer.stop();
    expect(status).toBe(1);
    expect(viewer.output()).toContain('verdict     failed: 2 test(s) failed');
  });
});

describe('m3 ui security', () => {
  let ui: ServingM3;
  let port: number;
  let token: string;
  beforeAll(async () => {
    ui = await serveM3(['ui', '--no-open'], folder);
    const url = new URL(ui.url);
    port = Number(url.port);
    token = url.searchParams.get('token')!;
  });
  afterAll(async () => {
    if (ui) expect(await ui.stop()).toBe(0);
  });
  const host = (): string => `127.0.0.1:${port}`;
  const cookie = (): string => `m3_viewer_${port}=${token}`;

  test('each start draws a new token; the token URL sets an HttpOnly, SameSite=Strict cookie and drops the token', async () => {
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(new URL(viewer.url).searchParams.get('token')).not.toBe(token);
    const answer = await rawRequest(port, 'GET', `/?token=${token}`, { Host: host() });
    expect(answer.status).toBe(303);
    expect(answer.headers.location).toBe('/');
    expect(answer.headers['set-cookie']).toEqual([`m3_viewer_${port}=${token}; HttpOnly; SameSite=Strict; Path=/`]);
    const ok = await rawRequest(port, 'GET', '/api/runs', { Host: host(), Cookie: cookie() });
    expect(ok.status).toBe(200);
    expect(ok.headers['content-security-policy']).toContain("default-src 'none'");
    expect(JSON.parse(ok.body).runs.map((r: { run: { runId: string } }) => r.run.runId)).toEqual([
      secondRunId,
      firstRunId,
    ]);
  });

  test('no token → 401, a wrong token → 403, on pages and API alike', async () => {
    for (const path of ['/', '/api/runs', `/api/runs/${firstRunId}`, '/assets/viewer.js']) {
      const none = await rawRequest(port, 'GET', path, { Host: host() });
      expect([path, none.status]).toEqual([path, 401]);
      expect(none.body).not.toContain(firstRunId);
      const wrong = await rawRequest(port, 'GET', path, {
        Host: host(),
        Cookie: `m3_viewer_${port}=${'x'.repeat(43)}`,
      });
      expect([path, wrong.status]).toEqual([path, 403]);
    }
    expect((await rawRequest(port, 'GET', '/?token=guess', { Host: host() })).status).toBe(403);
  });

  test('a Host other than loopback → 400, even with the token; a foreign Origin → 403', async () => {
    for (const badHost of [
      'evil.test',
      `evil.test:${port}`,
      `127.0.0.1:${port + 1}`,
      `127.0.0.1.evil.test:${port}`,
      '',
    ]) {
      const answer = await rawRequest(port, 'GET', '/api/runs', { Host: badHost, Cookie: cookie() });
      expect([badHost, answer.status]).toEqual([badHost, 400]);
      expect(answer.body).not.toContain(firstRunId);
    }
    expect((await rawRequest(port, 'GET', '/api/runs', { Host: `localhost:${port}`, Cookie: cookie() })).status).toBe(
      200,
    );
    const crossOrigin = await rawRequest(port, 'GET', '/api/runs', {
      Host: host(),
      Cookie: cookie(),
      Origin: 'http://evil.test',
    });
    expect(crossOrigin.status).toBe(403);
  });

  test('every method but GET and HEAD → 405 (read-only), with the token', async () => {
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']) {
      const answer = await rawRequest(port, method, '/api/runs', { Host: host(), Cookie: cookie() });
      expect([method, answer.status]).toEqual([method, 405]);
      expect(answer.headers.allow).toBe('GET, HEAD');
    }
    expect((await rawRequest(port, 'HEAD', '/api/runs', { Host: host(), Cookie: cookie() })).status).toBe(200);
  });

  test('nothing outside the database and the bundle is served: path traversal → 404', async () => {
    const secretFile = readFileSync(join(folder, 'jest.config.js'), 'utf8');
    for (const path of [
      '/assets/../jest.config.js',
      '/assets/../../../../etc/passwd',
      '/assets/%2e%2e/%2e%2e/jest.config.js',
      '/..%2f..%2fjest.config.js',
      '/assets/viewer.js/../../../.m3/executions.sqlite',
      '/.m3/executions.sqlite',
      '/api/executions/..%2f..%2fjest.config.js',
      `/api/executions/nope/evidence/..%2f..%2f.m3%2fexecutions.sqlite`,
    ]) {
      const answer = await rawRequest(port, 'GET', path, { Host: host(), Cookie: cookie() });
      expect([path, answer.status]).toEqual([path, 404]);
      expect(answer.body).not.toContain('root:');
      expect(answer.body).not.toContain(secretFile.slice(0, 40));
      expect(answer.body).not.toContain('SQLite format');
    }
  });

  test('stored markup comes back as JSON data, never as a page', async () => {
    const run = await rawRequest(port, 'GET', `/api/runs/${secondRunId}`, { Host: host(), Cookie: cookie() });
    expect(run.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(run.headers['x-content-type-options']).toBe('nosniff');
    expect(
      JSON.parse(run.body)
        .attempts.map((a: { failureMessage: string | null }) => a.failureMessage)
        .join(''),
    ).toContain('<script>window.__m3Injected=2</script>');
  });
});

describe('m3 report RUN --html DIR', () => {
  const reportFolder = reportFolderPerDescribe('m3-ui-report-');

  test('writes one self-contained page that opens from disk with no network and shows the same run', async () => {
    const report = runM3(['report', secondRunId, '--html', reportFolder()], folder);
    expect(report.stderr).toContain(`wrote the HTML report of ${secondRunId}`);
    expect(report.status).toBe(1); // the run failed; the report still says so
    const html = readFileSync(join(reportFolder(), 'index.html'), 'utf8');
    expect(html).not.toContain('<script>window.__m3Injected'); // embedded data escapes every <
    expect(html).not.toMatch(/<script[^>]+src=|<link[^>]+stylesheet[^>]+href=/);

    const { page, problems, requests } = await chromium.page();
    await page.goto(pathToFileURL(join(reportFolder(), 'index.html')).href);
    await page.waitForSelector('[data-testid=attempts]');
    expect(await page.$eval('h1', (h) => h.textContent)).toContain(secondRunId);
    expect(await page.$('#m3-injected')).toBeNull();
    await page.screenshot({ path: screenshotPath('static-run'), fullPage: true });
    await page.screenshot({ path: screenshotPath('static-run-top') });
    await expectFailuresFirst(page);

    const link = await misreportingExecutionLink(page);
    await page.click(`[data-testid=executions] a[href="${link}"]`);
    await expectConflictView(page);
    await page.screenshot({ path: screenshotPath('static-execution'), fullPage: true });
    await page.click('[data-testid=back-to-run]');
    await page.waitForSelector('[data-testid=attempts]');

    await clickLink(page, 'header.top nav', 'Trends');
    const chart = await canvasInk(page, '[data-testid=trend-chart]');
    expect(chart.inked).toBe(true);
    await clickLink(page, 'header.top nav', 'Runs');
    await page.waitForSelector('[data-testid=runs-table]');
    expect(await page.$eval('[data-testid=runs-table]', (t) => t.textContent ?? '')).toContain(firstRunId);

    expect(requests.filter((url) => !url.startsWith('file:') && !url.startsWith('data:'))).toEqual([]);
    expect(problems).toEqual([]);
  });
});
