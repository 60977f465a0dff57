// End-to-end: native agent traces (claude_code, codex) in the viewer, in a real browser. Two runs
// are stored in a fresh results database (the second run's `tools/list` catalog differs from the
// first's), then `m3 ui` and `m3 report --html` are driven by headless Chromium: the execution
// view shows the runtime facts or their Observation states, hidden reasoning as its state, the
// denied call and the turn conflict, each label once; the run view shows the interface changes.
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Page } from 'puppeteer-core';
import { SQLiteExecutionStore } from '@sf-m3/store-sqlite';
import { seedNativeRuns, type NativeRuns } from '../../packages/cli/src/ui/nativeRuns.testkit';
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

let folder: string;
let ids: NativeRuns;
let viewer: ServingM3;
let chromium: TestBrowser;

beforeAll(async () => {
  ensureBuilt();
  if (!existsSync(chromiumPath))
    throw new Error(`no Chromium at ${chromiumPath}: run \`apt-get install chromium\` (.ci/run does)`);
  folder = mkdtempSync(join(tmpdir(), 'm3-ui-native-'));
  mkdirSync(join(folder, '.m3'));
  const store = new SQLiteExecutionStore(join(folder, '.m3', 'executions.sqlite'));
  try {
    ids = await seedNativeRuns(store);
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

describe('m3 ui on native agent runs', () => {
  test('the execution view shows the claude_code runtime, usage, encrypted reasoning, the denied call and the turn conflict', async () => {
    const { page, problems } = await freshPage();
    await page.goto(viewer.url);
    await openExecution(page, page.url(), ids.claudeExecutionId);
    await expectClaudeView(page);
    await page.screenshot({ path: screenshotPath('native-execution'), fullPage: true });
    expect(problems).toEqual([]);
  });

  test('what the codex CLI did not report shows its state, never a blank or a made-up value', async () => {
    const { page, problems } = await freshPage();
    await page.goto(viewer.url);
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
    const { page, problems } = await freshPage();
    await page.goto(viewer.url);
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
  let out: string;
  beforeAll(() => {
    out = mkdtempSync(join(tmpdir(), 'm3-ui-native-report-'));
  });
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  test('the static page shows the same interface changes and execution view', async () => {
    const report = runM3(['report', ids.runId, '--html', out], folder);
    expect(report.stderr).toContain(`wrote the HTML report of ${ids.runId}`);
    const { page, problems } = await freshPage();
    const file = pathToFileURL(join(out, 'index.html')).href;
    await page.goto(`${file}#/runs/${ids.runId}`);
    await expectInterfaceChanges(page);
    await openExecution(page, file, ids.claudeExecutionId);
    await expectClaudeView(page);
    expect(problems).toEqual([]);
  });
});
