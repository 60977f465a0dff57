// The secrets suite (issue 11, contract §22): a distinct canary is planted in every input path of a
// secret (stdio env, HTTP headers, SecretRefs, --env-file, the CLI's --env/--header/--arg, judge
// and agent keys), a leaky server repeats them on stderr, in results and in errors, tests fail with
// messages quoting them; then everything the run leaves is searched byte for byte: the database
// and its WAL, .m3/reports, stdout and stderr (debug logs on), the temp folder, the cassette files
// the agent and the judge recorded (contract §24: the run records, so their keys, requests and
// answers went through the recording proxy), and a later `m3 report --json` in a shell without
// the variables. Zero hits, per path. A second part
// interrupts runs mid-ACP-session and checks the temp folder holds no capture file and no secret.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, watch, writeFileSync, type FSWatcher } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, sep } from 'node:path';
import { FakeChatCompletionsServer } from '@sf-m3/core/testing';
import {
  copyFixture,
  ensureBuilt,
  m3Bin,
  printedRunId,
  removeFixture,
  repoRoot,
  runM3Async,
  withStore,
} from '../cli.testkit';
import { dirsNamed, filesUnder, plantCanaries, searchCanaries, type CanaryHit } from './secrets.testkit';

jest.setTimeout(300_000);

beforeAll(() => {
  ensureBuilt();
});

/** Temp folders of the kit and the run (capture files, proxy configs, agent homes, worker folders). */
const TEMP_PREFIXES = ['sf-m3-wire-', 'sf-m3-proxy-', 'm3-acp-', 'sf-m3-tmp-'];

function report(label: string, canaries: Record<string, string>, places: number, hits: CanaryHit[]): void {
  // The figure the issue asks for, printed by the suite.
  process.stdout.write(
    `secrets suite (${label}): ${Object.keys(canaries).length} canaries, ${places} places searched, ${hits.length} hits` +
      `${hits.length > 0 ? `: ${hits.map((h) => `${h.where} ×${h.count}`).join(', ')}` : ''}\n`,
  );
}

/**
 * Keeps the largest copy of a file seen while a run writes it (the WAL is gone once the run closes it).
 * It reads the file only when a look at its size and mtime says a read could replace the copy kept
 * (as large or larger, and changed since the last read), not the whole file every 100 ms.
 */
function watchFile(path: string): { stop(): Buffer } {
  let kept = Buffer.alloc(0);
  let lastRead = { size: -1, mtimeNs: -1n };
  const timer = setInterval(() => {
    try {
      const info = statSync(path, { bigint: true });
      const size = Number(info.size);
      if (size < kept.length || (size === lastRead.size && info.mtimeNs === lastRead.mtimeNs)) return;
      lastRead = { size, mtimeNs: info.mtimeNs };
      const bytes = readFileSync(path);
      if (bytes.length >= kept.length) kept = bytes;
    } catch {
      // Not there (yet, or any more).
    }
  }, 100);
  return {
    stop() {
      clearInterval(timer);
      return kept;
    },
  };
}

/** `promise`, or 'timeout' after `ms` (the timer is cleared either way, so Jest can exit). */
async function within<T>(promise: Promise<T>, ms: number): Promise<T | 'timeout'> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([promise, new Promise<'timeout'>((r) => (timer = setTimeout(() => r('timeout'), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Resolves true once `file` exists (a watch on its folder sees it created), or false as soon as the
 * run ended without it: event-driven, so a loaded machine only makes it later, never wrong.
 */
async function untilExists(file: string, ended: Promise<unknown>): Promise<boolean> {
  let watcher: FSWatcher | undefined;
  try {
    return await new Promise<boolean>((resolve) => {
      const check = (): void => {
        if (existsSync(file)) resolve(true);
      };
      watcher = watch(dirname(file), check);
      check();
      void ended.then(() => resolve(existsSync(file)));
    });
  } finally {
    watcher?.close();
  }
}

/** Starts the leaky server over HTTP on loopback; resolves its URL. */
function startLeakyHttp(folder: string): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [join(folder, 'leakyServer.js'), '--http'], {
    env: { PATH: process.env.PATH, SF_M3_ROOT: repoRoot },
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the leaky HTTP server did not start within 30 s')), 30_000);
    let out = '';
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      const match = /listening on (\S+)/.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve({ url: match[1]!, child });
      }
    });
    child.once('exit', () => reject(new Error(`the leaky HTTP server exited: ${out}`)));
  });
}

describe('secrets planted in every input path never reach what a run leaves', () => {
  const canaries = plantCanaries([
    'envFile',
    'stdioEnv',
    'secretRef',
    'httpHeader',
    'cliEnv',
    'cliHeader',
    'cliArg',
    'judgeKey',
    'agentKey',
  ] as const);
  let folder: string;
  let temp: string;
  let http: { url: string; child: ChildProcess };
  const fake = new FakeChatCompletionsServer();

  beforeAll(async () => {
    folder = copyFixture('faults-secrets-project');
    temp = mkdtempSync(join(tmpdir(), 'm3-secrets-tmp-'));
    writeFileSync(join(folder, '.env'), `SERVICE_API_KEY=${canaries.envFile}\nAUTH_MODE=basic\n`);
    http = await startLeakyHttp(folder);
    fake
      .when(
        { model: 'judge-model' },
        {
          content: JSON.stringify({ score: 0.9, rationale: `nothing about ${canaries.judgeKey}`, abstain: false }),
        },
      )
      .when({ model: 'agent-model' }, { content: `never ${canaries.agentKey}` });
    await fake.start();
  });
  afterAll(async () => {
    http?.child.kill('SIGKILL');
    await fake.close();
    removeFixture(folder);
    rmSync(temp, { recursive: true, force: true });
  });

  test('zero hits in the database, WAL, reports, stdout, stderr, debug logs, temp folder and a later m3 report', async () => {
    const db = join(folder, '.m3', 'executions.sqlite');
    const wal = watchFile(`${db}-wal`);
    const run = await runM3Async(
      [
        'test',
        'tests/leaks.test.js',
        '--env-file',
        '.env',
        '--server',
        'stdio',
        '--command',
        process.execPath,
        '--arg',
        join(folder, 'leakyServer.js'),
        '--arg',
        `--token=${canaries.cliArg}`,
        '--env',
        `CLI_API_TOKEN=${canaries.cliEnv}`,
        '--env',
        `SF_M3_ROOT=${repoRoot}`,
        '--name',
        'cli-stdio',
        '--server',
        'http',
        '--url',
        http.url,
        '--header',
        `Authorization: Bearer ${canaries.cliHeader}`,
        '--name',
        'cli-http',
      ],
      folder,
      {
        TMPDIR: temp,
        M3_LOG_LEVEL: 'debug',
        FAKE_MODEL_URL: fake.baseUrl,
        LEAKY_HTTP_URL: http.url,
        PLANT_STDIO_ENV: canaries.stdioEnv,
        PLANT_REF_TOKEN: canaries.secretRef,
        PLANT_HTTP_HEADER: canaries.httpHeader,
        PLANT_JUDGE_KEY: canaries.judgeKey,
        PLANT_AGENT_KEY: canaries.agentKey,
        // Cassettes on: every model request of the agent and the judge is recorded into a file.
        M3_CASSETTES: 'record',
      },
    );
    const walBytes = wal.stop();
    const runId = printedRunId(run.stdout);
    expect(run.status).toBe(1);

    // The secrets really went everywhere: the keys were sent, the servers saw them, tests failed on them.
    expect(fake.requests.some((r) => r.headers.authorization === `Bearer ${canaries.judgeKey}`)).toBe(true);
    expect(fake.requests.some((r) => r.headers.authorization === `Bearer ${canaries.agentKey}`)).toBe(true);
    const saved = await withStore(folder, async (store) => ({
      attempts: await store.listAttempts({ runId }),
      executions: await store.listExecutions({ runId }),
    }));
    const failed = saved.attempts.filter((a) => a.outcome === 'failed');
    expect(failed.length).toBeGreaterThanOrEqual(7);
    expect(failed.filter((a) => a.failureMessage?.includes('[REDACTED]')).length).toBeGreaterThanOrEqual(5);
    expect(saved.executions.length).toBeGreaterThanOrEqual(6);
    // Errors outside any test (two afterAll hooks) reach Jest's report, redacted.
    expect(run.stderr).toContain('suite afterAll: the service refused [REDACTED]');
    expect(run.stderr).toContain('file afterAll: the service refused [REDACTED]');
    // Redaction replaces secrets, not words: AUTH_MODE=basic in the env file blanks nothing.
    expect(run.stdout).not.toContain('[REDACTED] adds');

    // The cassette was written, with the agent's and the judge's traffic in it (their answers quote
    // the keys, so redaction had something to do).
    const cassetteFiles = filesUnder(folder).filter((file) => file.includes(`${sep}__cassettes__${sep}`));
    expect(cassetteFiles.map((file) => file.slice(folder.length + 1))).toEqual([
      join('tests', '__cassettes__', 'leaks.test.js.cassette.json'),
    ]);
    const cassette = JSON.parse(readFileSync(cassetteFiles[0]!, 'utf8')) as {
      tests: Record<string, { channels: Record<string, unknown[]> }>;
    };
    const channels = Object.values(cassette.tests).flatMap((entry) => Object.keys(entry.channels));
    expect(channels).toEqual(expect.arrayContaining(['judge judge-model', 'openai agent-model trial 1']));
    expect(readFileSync(cassetteFiles[0]!, 'utf8')).toContain('[REDACTED]');

    // A later report, in a shell without any of the variables or the env file.
    const later = await runM3Async(['report', runId, '--json'], folder, { TMPDIR: temp });
    expect(later.status).toBe(1);
    expect(JSON.parse(later.stdout)).toMatchObject({ runId });

    const sources = [
      { where: 'm3 test stdout', bytes: run.stdout },
      { where: 'm3 test stderr (debug logs)', bytes: run.stderr },
      { where: 'WAL during the run', bytes: walBytes },
      { where: 'm3 report --json stdout', bytes: later.stdout },
      { where: 'm3 report --json stderr', bytes: later.stderr },
      ...filesUnder(join(folder, '.m3')).map((file) => ({ where: file.slice(folder.length + 1), file })),
      ...filesUnder(temp).map((file) => ({ where: `TMPDIR/${file.slice(temp.length + 1)}`, file })),
      ...cassetteFiles.map((file) => ({ where: file.slice(folder.length + 1), file })),
    ];
    expect(walBytes.length).toBeGreaterThan(0);
    const hits = searchCanaries(canaries, sources);
    report('every input path', canaries, sources.length, hits);
    expect(hits).toEqual([]);
    expect(dirsNamed(temp, TEMP_PREFIXES)).toEqual([]);
  });
});

describe('a run interrupted mid-ACP-session leaves no capture file and no secret in the temp folder', () => {
  test.each(['SIGTERM', 'SIGINT'] as const)('%s', async (signal) => {
    const canaries = plantCanaries(['envFile'] as const);
    const folder = copyFixture('faults-secrets-project');
    const temp = mkdtempSync(join(tmpdir(), 'm3-secrets-tmp-'));
    const marker = join(folder, 'in-session');
    writeFileSync(join(folder, '.env'), `SERVICE_API_KEY=${canaries.envFile}\n`);
    const env: NodeJS.ProcessEnv = { ...process.env, SF_M3_ROOT: repoRoot, TMPDIR: temp, SECRETS_MARKER: marker };
    for (const name of Object.keys(env)) if (name.startsWith('M3_') || name === 'JEST_WORKER_ID') delete env[name];
    // Its own process group, so SIGINT can reach the run the way Ctrl-C in a terminal does.
    const child = spawn(process.execPath, [m3Bin, 'test', 'tests/acpInterrupt.test.js', '--env-file', '.env'], {
      cwd: folder,
      env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      expect(await untilExists(marker, exited)).toBe(true);

      // Mid-session: the capture file exists, and already holds no unredacted secret.
      const captures = filesUnder(temp).filter((file) => file.endsWith('capture.jsonl'));
      expect(captures.length).toBeGreaterThan(0);
      expect(captures.some((file) => readFileSync(file, 'utf8').includes('[REDACTED]'))).toBe(true);
      const midHits = searchCanaries(
        canaries,
        captures.map((file) => ({ where: file, file })),
      );
      expect(midHits).toEqual([]);

      if (signal === 'SIGINT') process.kill(-child.pid!, 'SIGINT');
      else child.kill('SIGTERM');
      const code = await within(exited, 120_000);
      expect(code).not.toBe('timeout');
      expect(code).not.toBe(0);

      const files = filesUnder(temp);
      const sources = [{ where: 'm3 output', bytes: output }, ...files.map((file) => ({ where: file, file }))];
      const hits = searchCanaries(canaries, sources);
      report(`interrupted by ${signal} mid-ACP-session`, canaries, sources.length, hits);
      expect(hits).toEqual([]);
      expect(dirsNamed(temp, TEMP_PREFIXES)).toEqual([]);
    } finally {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // The group is gone.
      }
      await within(exited, 5000);
      removeFixture(folder);
      rmSync(temp, { recursive: true, force: true });
    }
  });
});
