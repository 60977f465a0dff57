// Helpers for the viewer's end-to-end tests: headless Chromium (Debian's /usr/bin/chromium through
// puppeteer-core, a fresh profile per launch), a long-running `m3` child whose printed viewer URL
// is awaited, plain HTTP requests with any Host/method/cookie, and the screenshot folder.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer, { type Browser } from 'puppeteer-core';
import { childEnv, m3Bin, repoRoot } from '../cli.testkit';

/** Where the browser tests keep their screenshots (one per view), for people to look at. */
export const screenshotDir = join(repoRoot, 'test-output', 'ui');

/** The Chromium the tests drive; `.ci/run` installs Debian's `chromium` when it is missing. */
export const chromiumPath = process.env.M3_TEST_CHROMIUM ?? '/usr/bin/chromium';

/** A launched browser and the profile folder it owns. */
export interface TestBrowser {
  browser: Browser;
  close(): Promise<void>;
}

/**
 * Launches headless Chromium with the flags this machine needs and a fresh user-data-dir.
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
  return {
    browser,
    close: async () => {
      await browser.close();
      rmSync(profile, { recursive: true, force: true });
    },
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
