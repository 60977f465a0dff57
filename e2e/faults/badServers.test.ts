// Bad input from servers (contract §22, issue 11 Deliver 3): through the real `m3 test` and Jest, on a
// fixture project with the default SQLite results database, stdio servers that flood stdout with
// 200 000 non-JSON lines, never answer, answer with 20 MB, or write random bytes, and an in-process
// server answering with 20 MB. Each case ends in a named error naming the fix (or the result), in
// bounded time, memory and storage: the suite measures the bytes each run adds to the database,
// the events stored and the peak RSS of the Jest process, prints them, and asserts bounds. Two
// `m3 test` runs cover the five cases: the in-process one alone (it stores megabytes), then the
// four stdio cases together in band, whose run must add under 1 MB in all.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { isAlive } from '../../packages/core/src/transport/processTree';
import { copyFixture, ensureBuilt, printedRunId, removeFixture, runM3Async, withStore } from '../cli.testkit';

jest.setTimeout(300_000);

const MB = 1024 * 1024;

/** What one fixture test wrote about itself (tests/badServer.js `writeFigures`). */
interface Figures {
  errorName?: string;
  errorMessage?: string;
  textBytes?: number;
  elapsedMs: number;
  rssBytes: number;
  maxRssBytes: number;
}

/** What one case cost, as printed at the end. */
interface Measured {
  name: string;
  addedBytes: number;
  events: number;
  maxRssBytes: number;
  elapsedMs: number;
  error: string;
}

let folder: string;
const measured: Measured[] = [];

/** The database's bytes on disk: the file and its write-ahead log (m3 has closed it by now). */
function databaseBytes(): number {
  const file = join(folder, '.m3', 'executions.sqlite');
  const size = (path: string) => (existsSync(path) ? statSync(path).size : 0);
  return size(file) + size(`${file}-wal`);
}

const figuresOf = (name: string): Figures => JSON.parse(readFileSync(join(folder, 'figures', `${name}.json`), 'utf8'));

/** True once the bad server started in `mode` (its pid in figures/<mode>.pid) is gone. */
async function reaped(mode: string): Promise<boolean> {
  const pid = Number(readFileSync(join(folder, 'figures', `${mode}.pid`), 'utf8'));
  for (let i = 0; i < 100 && isAlive(pid); i += 1) await new Promise((resolve) => setTimeout(resolve, 100));
  return !isAlive(pid);
}

/** What one case's execution stored. */
type Saved = Awaited<ReturnType<typeof readExecution>>;

/** The one execution of the run's attempt of tests/<testFile>.test.js, its trace and view. */
async function readExecution(runId: string, testFile: string) {
  return withStore(folder, async (store) => {
    const attempt = (await store.listAttempts({ runId })).find((a) => a.testPath === `tests/${testFile}.test.js`);
    if (attempt === undefined) throw new Error(`run ${runId} has no attempt of tests/${testFile}.test.js`);
    expect(attempt.executionIds).toHaveLength(1);
    const executionId = attempt.executionIds[0]!;
    const execution = await store.getExecution(executionId);
    const trace = await store.getTrace(executionId);
    const view = await store.getTraceView(executionId);
    return { execution, trace, view, startedAt: attempt.startedAt };
  });
}

/**
 * Runs the given fixture test files through one `m3 test` (in band: one Jest process, so the peak
 * RSS a case reports covers the cases before it in the run too), and reads back what each case's
 * execution stored and the bytes the whole run added to the database.
 */
async function runCases(testFiles: readonly string[]): Promise<{ addedBytes: number; cases: Map<string, Saved> }> {
  const before = databaseBytes();
  const paths = testFiles.map((name) => `tests/${name}.test.js`);
  const run = await runM3Async(['test', ...paths, '--', '--runInBand'], folder, {}, 280_000);
  expect(run.stdout + run.stderr).toContain(`attempts    ${testFiles.length} passed, 0 failed`);
  expect(run.status).toBe(0);
  const addedBytes = databaseBytes() - before;
  const runId = printedRunId(run.stdout);
  const cases = new Map<string, Saved>();
  for (const name of testFiles) cases.set(name, await readExecution(runId, name));
  return { addedBytes, cases };
}

function note(name: string, addedBytes: number, events: number, figures: Figures): void {
  const error = figures.errorName ?? `result of ${figures.textBytes} bytes`;
  measured.push({ name, addedBytes, events, maxRssBytes: figures.maxRssBytes, elapsedMs: figures.elapsedMs, error });
}

/** The stdio cases, which each store little: one run, whose added bytes bound every one of them. */
const SMALL_CASES = ['flood', 'mute', 'huge', 'garbage'] as const;
let inProcess: { addedBytes: number; saved: Saved };
let small: { addedBytes: number; cases: Map<string, Saved> };
const smallCase = (name: (typeof SMALL_CASES)[number]): Saved & { addedBytes: number } => ({
  ...small.cases.get(name)!,
  addedBytes: small.addedBytes,
});

beforeAll(async () => {
  ensureBuilt();
  folder = copyFixture('faults-servers-bad');
  // The in-process case first: its run creates the database (schema, first pages), so what the
  // stdio cases' run adds after it is their own.
  const first = await runCases(['hugeInProcess']);
  inProcess = { addedBytes: first.addedBytes, saved: first.cases.get('hugeInProcess')! };
  small = await runCases(SMALL_CASES);
});

/**
 * The peak RSS a case reports covers the cases before it in its Jest process. Jest runs files it has
 * no timings for largest first, so the 20 MB stdio case (the smallest file, the largest peak) runs
 * after the cases whose RSS is bounded; if that order changed, their bound would measure it too.
 */
function expectRanBeforeTheHugeStdioCase(name: 'flood' | 'garbage'): void {
  expect(smallCase(name).startedAt < smallCase('huge').startedAt).toBe(true);
}

afterAll(() => {
  const rows = measured.map(
    (m) =>
      `  ${m.name.padEnd(28)} +${String(m.addedBytes).padStart(9)} bytes  ${String(m.events).padStart(4)} events  ` +
      `peak RSS ${(m.maxRssBytes / MB).toFixed(0).padStart(4)} MB  ${m.error} after ${m.elapsedMs} ms`,
  );
  console.log(
    'bad servers: what each run added to the results database (the four stdio cases share one run)\n' + rows.join('\n'),
  );
  if (folder !== undefined) removeFixture(folder);
});

describe('bad servers through m3 test', () => {
  test('200 000 non-JSON lines then no answer: OperationTimeout, < 1 MB stored, bounded RSS', async () => {
    const { addedBytes, execution, trace, view } = smallCase('flood');
    const figures = figuresOf('flood');
    note('flood (200 000 lines)', addedBytes, trace.events.length, figures);
    expect(figures.errorName).toBe('OperationTimeout');
    expect(figures.errorMessage).toMatch(/^tools\/call timed out after 1000 ms: .*raise timeoutMs/);
    expect(execution.outcome).toBe('failed');
    const summary = trace.events.find((e) => e.payload.summarized === true && e.payload.code === 'non_json_output');
    expect(summary?.payload).toMatchObject({
      count: 200_000,
      summarizedCount: 199_980,
      firstLine: 'log 0: the server is chatty on stdout',
      lastLine: 'log 199999: the server is chatty on stdout',
    });
    expect(view.diagnostics.filter((d) => d.code === 'non_json_output')).toHaveLength(21);
    expect(trace.limitations).toContain('diagnostics_summarized');
    expect(trace.events.length).toBeLessThan(60);
    expect(addedBytes).toBeLessThan(1 * MB);
    expectRanBeforeTheHugeStdioCase('flood');
    expect(figures.maxRssBytes).toBeLessThan(300 * MB);
    expect(await reaped('flood')).toBe(true);
  });

  test('a server that never answers: OperationTimeout on initialize, the server reaped', async () => {
    const { addedBytes, execution, trace } = smallCase('mute');
    const figures = figuresOf('mute');
    note('never answers', addedBytes, trace.events.length, figures);
    expect(figures.errorName).toBe('OperationTimeout');
    expect(figures.errorMessage).toMatch(/^initialize timed out after 1500 ms: .*raise timeoutMs/);
    expect(execution.outcome).toBe('failed');
    expect(addedBytes).toBeLessThan(1 * MB);
    expect(await reaped('mute')).toBe(true);
  });

  test('a 20 MB result over stdio: the SDK refuses the frame, a named TransportError, little stored', async () => {
    const { addedBytes, execution, trace, view } = smallCase('huge');
    const figures = figuresOf('huge');
    note('20 MB result (stdio)', addedBytes, trace.events.length, figures);
    // Over the SDK's 10 MiB stdio buffer: the SDK ends the connection, the call gets no result.
    expect(figures.errorName).toBe('TransportError');
    expect(figures.errorMessage).toContain('tools/call');
    expect(execution.outcome).toBe('failed');
    expect(view.toolCalls.map((c) => c.status)).toEqual(['transport_error']);
    expect(addedBytes).toBeLessThan(1 * MB);
    expect(await reaped('huge')).toBe(true);
  });

  test('2 MB of random bytes on stdout: OperationTimeout, lines quoted and counted, < 1 MB stored', async () => {
    const { addedBytes, execution, trace } = smallCase('garbage');
    const figures = figuresOf('garbage');
    note('random bytes (2 MB)', addedBytes, trace.events.length, figures);
    expect(figures.errorName).toBe('OperationTimeout');
    expect(execution.outcome).toBe('failed');
    const summaries = trace.events.filter((e) => e.payload.summarized === true);
    expect(summaries.map((e) => e.payload.code)).toContain('non_json_output');
    const lines = summaries.reduce((n, e) => n + (e.payload.count as number), 0);
    expect(lines).toBeGreaterThan(1_000);
    expect(trace.events.length).toBeLessThan(100);
    expect(addedBytes).toBeLessThan(1 * MB);
    expectRanBeforeTheHugeStdioCase('garbage');
    expect(figures.maxRssBytes).toBeLessThan(300 * MB);
    expect(await reaped('garbage')).toBe(true);
  });

  test('a 20 MB result in process: returned whole, its frame kept to 1 MiB, the trace reads back', async () => {
    const { addedBytes } = inProcess;
    const { execution, trace, view } = inProcess.saved;
    const figures = figuresOf('hugeInProcess');
    note('20 MB result (in process)', addedBytes, trace.events.length, figures);
    expect(figures.textBytes).toBe(20 * MB);
    expect(execution.outcome).toBe('completed');
    expect(view.toolCalls.map((c) => [c.status, c.result.state])).toEqual([['success', 'observed']]);
    const response = trace.events.find((e) => e.kind === 'tool.result_received');
    expect(response?.rawEvidence).toMatchObject({ sizeBytes: 1 * MB, truncated: true });
    expect(response?.rawEvidence!.originalSizeBytes).toBeGreaterThan(20 * MB);
    // The evidence reads back, its size and digest verified.
    const evidence = await withStore(folder, (reader) => reader.readRawEvidence(response!.rawEvidence!));
    expect([evidence.sizeBytes, evidence.returnedSizeBytes, evidence.content.length]).toEqual([MB, MB, MB]);
    // The decoded result (20 MB) and its 1 MiB frame fit the 64 MiB evidence budget of the execution.
    expect(trace.limitations).not.toContain('evidence_budget_exhausted');
    expect(addedBytes).toBeLessThan(64 * MB + 2 * MB);
  });
});
