// Test helpers: run the real proxy script in front of the NDJSON fixture server and collect what
// comes out of its stdout, its capture file and the fixture's own log of received lines.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildProxyCommand } from './buildProxyCommand';
import { CaptureFile } from './CaptureFile';
import { createProxyConfig, writeProxyConfig, type CreateProxyConfigOptions } from './ProxyConfig';

export const ndjsonServerPath = join(__dirname, '__fixtures__', 'ndjsonServer.js');

/** A running proxy in front of the fixture server. */
export interface RunningProxy {
  readonly child: ChildProcessWithoutNullStreams;
  readonly configPath: string;
  readonly capturePath: string;
  readonly logPath: string;
  /** Everything the proxy wrote to stdout so far. */
  stdout(): Buffer;
  /** stdout split into lines (without terminators). */
  lines(): string[];
  /** Waits until stdout holds at least `count` newline-terminated lines. */
  waitForLines(count: number, timeoutMs?: number): Promise<string[]>;
  /** Resolves with the proxy's exit code and signal. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Lines the fixture server logged as received, plus its eof/sigterm events. */
  serverLog(): { event: string; text?: string }[];
  capture(): Promise<CaptureFile>;
}

/** Options: the config fields tests vary; the fixture server is the default command. */
export type StartProxyOptions = Partial<CreateProxyConfigOptions> & { fixtureEnv?: Record<string, string> };

const running = new Set<ChildProcessWithoutNullStreams>();

/** Stops every proxy a test left running (SIGTERM, then SIGKILL): call it in afterEach. */
export async function stopAllProxies(): Promise<void> {
  await Promise.all(
    [...running].map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          const timer = setTimeout(() => child.kill('SIGKILL'), 2000);
          child.once('exit', () => {
            clearTimeout(timer);
            resolve();
          });
          child.kill('SIGTERM');
        }),
    ),
  );
  running.clear();
}

/** Writes a config for the fixture server and spawns the proxy script on it. */
export async function startProxy(options: StartProxyOptions = {}): Promise<RunningProxy> {
  const dir = mkdtempSync(join(tmpdir(), 'sf-m3-proxy-test-'));
  const capturePath = join(dir, 'capture.jsonl');
  const logPath = join(dir, 'server-log.jsonl');
  const { fixtureEnv, ...configOptions } = options;
  const config = createProxyConfig({
    serverName: 'fixture',
    command: process.execPath,
    args: [ndjsonServerPath],
    capturePath,
    ...configOptions,
    env: { FIXTURE_LOG: logPath, ...(fixtureEnv ?? {}), ...(configOptions.env ?? {}) },
  });
  const configPath = await writeProxyConfig(config);
  const { command, args } = buildProxyCommand(configPath);
  // Lets a mutation check point the tests at a modified copy of the script.
  if (process.env.SF_M3_TEST_PROXY_SCRIPT) args[0] = process.env.SF_M3_TEST_PROXY_SCRIPT;
  const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'] });
  running.add(child);
  child.on('exit', () => running.delete(child));
  const out: Buffer[] = [];
  let waiters: (() => void)[] = [];
  let lineCount = 0;
  child.stdout.on('data', (chunk: Buffer) => {
    out.push(chunk);
    for (let i = chunk.indexOf(0x0a); i !== -1; i = chunk.indexOf(0x0a, i + 1)) lineCount += 1;
    for (const w of waiters) w();
  });
  child.stderr.resume();
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.on('exit', (code, signal) => resolve({ code, signal }));
  });
  const stdout = () => Buffer.concat(out);
  const lines = () => {
    const text = stdout().toString('utf8');
    const parts = text.split('\n');
    parts.pop();
    return parts;
  };
  return {
    child,
    configPath,
    capturePath,
    logPath,
    stdout,
    lines,
    exited,
    waitForLines(count, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (lineCount >= count) {
            waiters = waiters.filter((w) => w !== check);
            clearTimeout(timer);
            resolve(lines());
          }
        };
        const timer = setTimeout(() => {
          waiters = waiters.filter((w) => w !== check);
          reject(new Error(`expected ${count} lines from the proxy, got ${lines().length}: ${stdout().toString()}`));
        }, timeoutMs);
        waiters.push(check);
        check();
      });
    },
    serverLog() {
      if (!existsSync(logPath)) return [];
      return readFileSync(logPath, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as { event: string; text?: string });
    },
    capture: () => CaptureFile.readAll(capturePath),
  };
}

/** Writes bytes to the proxy's stdin in separate chunks with a pause between them. */
export async function writeInChunks(proxy: RunningProxy, chunks: Buffer[], pauseMs = 30): Promise<void> {
  for (const chunk of chunks) {
    proxy.child.stdin.write(chunk);
    await new Promise((resolve) => setTimeout(resolve, pauseMs));
  }
}

/** A JSON-RPC request line. */
export function rpc(id: number | string, method: string, params?: unknown): string {
  return `${JSON.stringify({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) })}\n`;
}
