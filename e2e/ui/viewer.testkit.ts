// The shared setup of the viewer's end-to-end tests (the four e2e/ui/*.browser.test.ts files):
// one headless Chromium per file (Debian's /usr/bin/chromium through puppeteer-core, a fresh
// profile per launch) and one page reused across its tests, results databases seeded through the
// store API, a long-running `m3` child whose printed viewer URL is awaited, plain HTTP requests
// with any Host/method/cookie, canvas ink checks and the screenshot folder.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ExecutionStore } from '@sf-m3/core';
import { SQLiteExecutionStore } from '@sf-m3/store-sqlite';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { childEnv, ensureBuilt, m3Bin, repoRoot } from '../cli.testkit';

/** Where the browser tests keep their screenshots (one per view), for people to look at. */
export const screenshotDir = join(repoRoot, 'test-output', 'ui');

/** The Chromium the tests drive; `.ci/run` installs Debian's `chromium` when it is missing. */
export const chromiumPath = process.env.M3_TEST_CHROMIUM ?? '/usr/bin/chromium';

/** Builds what the viewer tests run (the CLI and its bundled client) and checks Chromium is there. */
export function prepareViewerTests(): void {
  ensureBuilt();
  if (!existsSync(chromiumPath))
    throw new Error(`no Chromium at ${chromiumPath}: run \`apt-get install chromium\` (.ci/run does)`);
}

/** A page and what went wrong on it (page errors) and what it asked for (request URLs), since it was watched. */
export interface WatchedPage {
  page: Page;
  problems: string[];
  requests: string[];
}

/** A launched browser and the profile folder it owns. */
export interface TestBrowser {
  browser: Browser;
  /**
   * The browser's one reused page (its first tab), with its problem and request lists emptied:
   * each test starts from clean lists without paying for a new tab. Its cookies persist.
   */
  page(): Promise<WatchedPage>;
  /** A page in a fresh browser context (no cookies), for tests about what a browser without the token sees. */
  freshPage(): Promise<WatchedPage>;
  close(): Promise<void>;
}

/** Records `page`'s errors and requests into the lists it returns. */
function watch(page: Page): WatchedPage {
  const watched: WatchedPage = { page, problems: [], requests: [] };
  page.on('pageerror', (error) => watched.problems.push(`page error: ${String(error)}`));
  page.on('request', (request) => watched.requests.push(request.url()));
  return watched;
}

/**
 * Launches headless Chromium with the flags this machine needs and a fresh user-data-dir; the
 * flags also switch off what a test browser never uses (extensions, background networking and
 * component updates, crash reporting, audio), each of which costs CPU at start.
 * `evil.test` resolves to loopback, so a real browser can be sent to the viewer under a foreign Host.
 */
export async function launchBrowser(): Promise<TestBrowser> {
  const profile = mkdtempSync(join(tmpdir(), 'm3-ui-chromium-'));
  const browser = await puppeteer.launch({
    executablePath: chromiumPath,
    headless: true,
    userDataDir: profile,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--allow-file-access-from-files',
      '--host-resolver-rules=MAP evil.test 127.0.0.1',
      '--window-size=1360,900',
    ],
    defaultViewport: { width: 1360, height: 900 },
  });
  let reused: WatchedPage | undefined;
  return {
    browser,
    page: async () => {
      if (!reused) reused = watch((await browser.pages())[0] ?? (await browser.newPage()));
      reused.problems.length = 0;
      reused.requests.length = 0;
      return reused;
    },
    freshPage: async () => watch(await (await browser.createBrowserContext()).newPage()),
    close: async () => {
      await browser.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** What the first canvas inside `scope` shows: its size, and whether any pixel is drawn. */
export async function canvasInk(page: Page, scope: string): Promise<{ width: number; height: number; inked: boolean }> {
  await page.waitForSelector(`${scope} canvas`);
  return page.$eval(`${scope} canvas`, (canvas) => {
    const c = canvas as HTMLCanvasElement;
    const pixels = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
    let inked = false;
    for (let i = 3; i < pixels.length && !inked; i += 4) if (pixels[i]! > 0) inked = true;
    return { width: c.width, height: c.height, inked };
  });
}

/**
 * A fresh temp folder whose results database (`.m3/executions.sqlite`, where `m3 ui` and
 * `m3 report` look) holds what `seed` stored through the store API; returns the folder.
 */
export async function seededResultsFolder(
  prefix: string,
  seed: (store: ExecutionStore) => Promise<void>,
): Promise<string> {
  const folder = mkdtempSync(join(tmpdir(), prefix));
  mkdirSync(join(folder, '.m3'));
  const store = new SQLiteExecutionStore(join(folder, '.m3', 'executions.sqlite'));
  try {
    await seed(store);
  } finally {
    await store.close();
  }
  return folder;
}

/**
 * A temp folder for one describe block's `m3 report --html` output: made in its beforeAll, removed
 * in its afterAll. Call inside the describe; read the path in its tests.
 */
export function reportFolderPerDescribe(prefix: string): () => string {
  let out: string | undefined;
  beforeAll(() => {
    out = mkdtempSync(join(tmpdir(), prefix));
  });
  afterAll(() => {
    if (out !== undefined) rmSync(out, { recursive: true, force: true });
  });
  return () => {
    if (out === undefined) throw new Error('reportFolderPerDescribe: read the folder inside a test');
    return out;
  };
}

/** The screenshot path of one view (the folder is created). */
export function screenshotPath(name: string): string {
  mkdirSync(screenshotDir, { recursive: true });
  return join(screenshotDir, `${name}.png`);
}

/** A long-running `m3` child (`m3 ui`, `m3 test --ui`) and what it printed. */
export interface ServingM3 {
  child: ChildProcessWithoutNullStreams;
  url: string;
  output: () => string;
  /** Sends SIGINT and resolves with the exit status. */
  stop(): Promise<number | null>;
}

/** Starts `m3 <args>` and resolves once it prints the viewer URL (stdout or stderr). */
export function serveM3(
  args: string[],
  cwd: string,
  extraEnv: Record<string, string> = {},
  timeoutMs = 300_000,
): Promise<ServingM3> {
  const child = spawn(process.execPath, [m3Bin, ...args], { cwd, env: childEnv(extraEnv) });
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.on('close', (status) => resolve(status)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`m3 ${args.join(' ')} printed no viewer URL within ${timeoutMs} ms:\n${output}`));
    }, timeoutMs);
    const onData = (chunk: Buffer): void => {
      output += chunk.toString('utf8');
      const match = /read-only at (http:\/\/127\.0\.0\.1:\d+\/\?token=\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve({
          child,
          url: match[1]!,
          output: () => output,
          stop: () => {
            child.kill('SIGINT');
            return exited;
          },
        });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    void exited.then((status) => {
      clearTimeout(timer);
      reject(new Error(`m3 ${args.join(' ')} exited (${String(status)}) before printing a viewer URL:\n${output}`));
    });
  });
}

/** One raw HTTP answer. */
export interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** Sends one request to 127.0.0.1:`port` with exactly these method, path and headers. */
export function rawRequest(
  port: number,
  method: string,
  path: string,
  headers: Record<string, string>,
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, headers, setHost: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/**
 * Launches the browser while `serving` (an `m3` child printing its viewer URL) starts, and resolves
 * both; when either fails, the other is stopped or closed before the error is thrown, so no
 * Chromium or `m3` child outlives a failed setup.
 */
export async function serveWithBrowser(
  serving: Promise<ServingM3>,
): Promise<{ viewer: ServingM3; chromium: TestBrowser }> {
  const [served, launched] = await Promise.allSettled([serving, launchBrowser()]);
  if (served.status === 'fulfilled' && launched.status === 'fulfilled')
    return { viewer: served.value, chromium: launched.value };
  if (served.status === 'fulfilled') await served.value.stop();
  if (launched.status === 'fulfilled') await launched.value.close();
  throw served.status === 'rejected' ? served.reason : (launched as PromiseRejectedResult).reason;
}
