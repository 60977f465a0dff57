// End-to-end: the viewer on runs stored through the store API, in a real browser. One results
// database holds two native agent runs (claude_code, codex; the second run's `tools/list` catalog
// differs from the first's) and a run whose executions a cassette replayed, recorded or not at
// all (contract §24); one `m3 ui` serves it and `m3 report --html` writes each run's static page,
// both driven by one headless Chromium page:
// - native: the execution view shows the runtime facts or their Observation states, hidden
//   reasoning as its state, the denied call and the turn conflict, each label once; the run view
//   shows the interface changes;
// - cassettes: the run view and the execution view mark replayed and recorded executions, and
//   nothing on a live one.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Page } from 'puppeteer-core';
import { seedNativeRuns, type NativeRuns } from '../../packages/cli/src/ui/nativeRuns.testkit';
import { runM3 } from '../cli.testkit';
import { cassetteRunId, seedCassetteRun } from './cassetteRun.testkit';
import {
  prepareViewerTests,
  screenshotPath,
  seededResultsFolder,
  serveM3,
  serveWithBrowser,
  type ServingM3,
  type TestBrowser,
  reportFolderPerDescribe,
} from './viewer.testkit';

jest.setTimeout(300_000);

let folder: string;
let ids: NativeRuns;
let viewer: ServingM3;
let chromium: TestBrowser;

beforeAll(async () => {
  prepareViewerTests();
  folder = await seededResultsFolder('m3-ui-seeded-', async (store) => {
    ids = await seedNativeRuns(store);
    await seedCassetteRun(store);
  });
  ({ viewer, chromium } = await serveWithBrowser(serveM3(['ui', '--no-open'], folder)));
});

afterAll(async () => {
  await chromium?.close();
  if (viewer && viewer.child.exitCode === null) await viewer.stop();
  if (folder) rmSync(folder, { recursive: true, force: true });
});

/** The reused page, signed in to the served viewer (the token URL sets the cookie once). */
async function viewerPage(): Promise<{ page: Page; problems: string[] }> {
  const watched = await chromium.page();
  await watched.page.goto(viewer.url);
  return watched;
}

/** The runtime table as `key → shown text`. */
async function runtimeFacts(page: Page): Promise<Record<string, string>> {
  await page.waitForSelector('[data-testid=runtime]');
  return page.$$eval('[data-testid=runtime] tr', (rows) =>
    Object.fromEntries(rows.map((r) => [r.getAttribute('data-fact'), r.querySelector('td')?.textContent ?? ''])),
  );
}

/** Opens an execution view by its hash route, on the served viewer or the static report page at `url`. */
async function openExecution(page: Page, url: string, executionId: string): Promise<void> {
  await page.goto(`${url.replace(/#.*$/, '')}#/executions/${encodeURIComponent(executionId)}`);
  await page.waitForSelector('[data-testid=runtime]');
}

/** The checks of the claude_code execution view. */
async function expectClaudeView(page: Page): Promise<void> {
  const facts = await runtimeFacts(page);
  expect(facts).toMatchObject({
    kind: 'claude_code',
    agentName: 'claude-code',
    agentVersion: '2.1.44',
    sessionId: '7f3c2a9e-claude-session',
    model: 'claude-sonnet-4-5',
    inputTokens: '1,200',
    outputTokens: '340',
    reasoningTokens: '80',
    totalTokens: '1,540',
    cost: '0.0123',
    currency: 'USD',
  });
  expect(facts.protocolVersion).toMatch(/^unsupported/);

  const labels = await page.$eval('[data-testid=labels]', (p) => Array.from(p.children).map((c) => c.textContent));
  expect(labels.filter((l) => l?.includes('trial'))).toEqual(['trial=1']);
  expect(labels).toContain('harness=claude_code');

  const reasoning = await page.$eval('[data-testid=reasoning]', (li) => ({
    state: li.getAttribute('data-state'),
    text: li.textContent ?? '',
  }));
  expect(reasoning.state).toBe('encrypted');
  expect(reasoning.text).toContain('encrypted');
  expect(reasoning.text).toContain('no text was kept');

  const calls = await page.$$eval('[data-testid=tool-call]', (articles) =>
    articles.map((a) => ({
      policy: a.getAttribute('data-policy'),
      denied: a.classList.contains('denied'),
      text: a.querySelector('[data-testid=policy]')?.textContent ?? '',
      note: a.querySelector('[data-testid=correlation-note]')?.textContent ?? null,
      conflicts: Array.from(a.querySelectorAll('[data-testid=conflicts] tr[data-field]')).map(
        (r) => r.textContent ?? '',
      ),
    })),
  );
  expect(calls.map((c) => [c.policy, c.denied])).toEqual([
    ['allowed', false],
    ['denied', true],
  ]);
  expect(calls[1]!.text).toContain('policy denied: not in the allowlist');
  expect(calls[1]!.text).toContain('never reached the server');
  expect(calls.map((c) => c.note)).toEqual([null, ' (this call crossed the wire; the agent did not report it)']);
  expect(calls[0]!.conflicts).toHaveLength(1);
  expect(calls[0]!.conflicts[0]).toContain('another turn than it crossed the wire');
  expect(calls[0]!.conflicts[0]).toContain('turn-1');
  expect(calls[0]!.conflicts[0]).toContain('turn-2');
}

/** The checks of the run view's interface changes. */
async function expectInterfaceChanges(page: Page): Promise<void> {
  await page.waitForSelector('[data-testid=interface-changes]');
  const rows = await page.$$eval('[data-testid=interface-changes] tr[data-tool]', (trs) =>
    trs.map((tr) => [tr.getAttribute('data-tool'), tr.textContent ?? '']),
  );
  expect(rows.map(([tool]) => tool)).toEqual(['delete_order', 'shipping_quote']);
  expect(rows[0]![1]).toContain('+ added');
  expect(rows[1]![1]).toContain('~ changed');
  expect(rows[1]![1]).toContain('$.inputSchema.properties.zone');
  expect(rows[1]![1]).toContain('$.inputSchema.required');
  const summary = await page.$eval('[data-testid=interface-changes]', (d) => d.textContent ?? '');
  expect(summary).toContain('1 tool catalog(s) compared: 2 change(s), 1 not comparable');
  expect(await page.$eval('[data-testid=not-comparable]', (ul) => ul.textContent ?? '')).toBe(
    'native / billing listed tools in the current run only: not comparable',
  );
}

/** The run view's executions table as `execution id → cassette mark shown` (null: none). */
async function marksInRunView(page: Page, url: string): Promise<Record<string, string | null>> {
  await page.goto(`${url.replace(/#.*$/, '')}#/runs/${cassetteRunId}`);
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
async function markInExecutionView(
  page: Page,
  url: string,
  executionId: string,
): Promise<{ text: string | null; title: string | null }> {
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

describe('m3 ui on native agent runs', () => {
  test('the execution view shows the claude_code runtime, usage, encrypted reasoning, the denied call and the turn conflict', async () => {
    const { page, problems } = await viewerPage();
    await openExecution(page, page.url(), ids.claudeExecutionId);
    await expectClaudeView(page);
    await page.screenshot({ path: screenshotPath('native-execution'), fullPage: true });
    expect(problems).toEqual([]);
  });

  test('what the codex CLI did not report shows its state, never a blank or a made-up value', async () => {
    const { page, problems } = await viewerPage();
    await openExecution(page, page.url(), ids.codexExecutionId);
    const facts = await runtimeFacts(page);
    expect(facts.kind).toBe('codex');
    for (const key of ['agentName', 'agentVersion', 'sessionId', 'model', 'usage']) {
      expect([key, facts[key]]).toEqual([key, expect.stringMatching(/^not_emitted \(provider_did_not_emit\)$/)]);
    }
    expect(facts.inputTokens).toBeUndefined(); // one usage row says why, not six blank ones
    expect(await page.$eval('[data-testid=reasoning]', (li) => li.getAttribute('data-state'))).toBe('provider_hidden');
    expect(problems).toEqual([]);
  });

  test('the run view lists the tool-catalog changes against the baseline run', async () => {
    const { page, problems } = await viewerPage();
    await page.goto(`${page.url().replace(/#.*$/, '')}#/runs/${ids.runId}`);
    await expectInterfaceChanges(page);
    await page.screenshot({ path: screenshotPath('native-run'), fullPage: true });
    await page.goto(`${page.url().replace(/#.*$/, '')}#/runs/${ids.baselineRunId}`);
    await page.waitForSelector('[data-testid=attempts]');
    expect(await page.$('[data-testid=interface-changes]')).toBeNull();
    expect(problems).toEqual([]);
  });
});

describe('m3 report --html on a native run', () => {
  const reportFolder = reportFolderPerDescribe('m3-ui-native-report-');

  test('the static page shows the same interface changes and execution view', async () => {
    const report = runM3(['report', ids.runId, '--html', reportFolder()], folder);
    expect(report.stderr).toContain(`wrote the HTML report of ${ids.runId}`);
    const { page, problems } = await chromium.page();
    const file = pathToFileURL(join(reportFolder(), 'index.html')).href;
    await page.goto(`${file}#/runs/${ids.runId}`);
    await expectInterfaceChanges(page);
    await openExecution(page, file, ids.claudeExecutionId);
    await expectClaudeView(page);
    expect(problems).toEqual([]);
  });
});

describe('m3 ui marks executions a cassette served', () => {
  test('the run view and the execution view show replayed and recorded, and nothing on a live execution', async () => {
    const { page, problems } = await viewerPage();
    await expectMarks(page, page.url());
    await markInExecutionView(page, page.url(), 'exec-replayed');
    await page.screenshot({ path: screenshotPath('cassette-execution') });
    await marksInRunView(page, page.url());
    await page.screenshot({ path: screenshotPath('cassette-run'), fullPage: true });
    expect(problems).toEqual([]);
  });
});

describe('m3 report --html marks executions a cassette served', () => {
  const reportFolder = reportFolderPerDescribe('m3-ui-cassettes-report-');

  test('the static page shows the same marks', async () => {
    const report = runM3(['report', cassetteRunId, '--html', reportFolder()], folder);
    expect(report.stderr).toContain(`wrote the HTML report of ${cassetteRunId}`);
    const { page, problems } = await chromium.page();
    await expectMarks(page, pathToFileURL(join(reportFolder(), 'index.html')).href);
    expect(problems).toEqual([]);
  });
});
