// Helpers for the native CLIs' cassette tests (`<harness>/*.cassette.test.ts`, contract §24): a
// fixture CLI in its model-driven mode runs its trials through a kit carrying a real cassette
// book's scope, first recorded against a live FakeModelServer, then replayed from a new book with
// the endpoint at a closed port and no key. A trial is summarized as what the replay must
// reproduce: outcome, answer, tool calls reported and on the wire, verdicts.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createExampleServer } from '@sf-m3/example-servers';
import type { CassetteBook, CassetteBookReport } from '../../../cassettes/CassetteBook';
import type { CassetteMode } from '../../../cassettes/CassetteMode';
import { openCassetteBook } from '../../../cassettes/FileCassetteBook';
import type { ExecutionResult } from '../../../execution/ExecutionResult';
import { MCPTestKit } from '../../../kit/MCPTestKit';
import { InProcessServer } from '../../../servers/InProcessServer';
import { FakeModelServer } from '../../../testing/FakeModelServer';
import {
  offeredTool,
  trailingToolResults,
  type FakeModelDialect,
  type FakeModelRequest,
} from '../../../testing/fakeModelRequest';
import { ensureBuilt } from '../../pi/piHarness.testkit';

/** A loopback port nothing listens on: a client pointed there in replay proves no connection is made. */
const CLOSED_ORIGIN = 'http://127.0.0.1:9';

/** The variable every selection reads its model key from; set only while recording. */
export const KEY_ENV = 'M3_CASSETTE_CLI_TEST_KEY';
/** The live key (a redaction canary once the launch reads it), which the cassette file must never hold. */
const KEY = 'sk-casclis-live-key-7f3a9c2e5b1d';

const TEST_FILE = 'agents.test.ts';
const TEST_NAME = 'shipping agent quotes a parcel';
// The example server in the test process: the suite is about the model channel's record and replay,
// not the server's transport, and its calls still cross the loopback capture proxy (wireCalls). A
// stdio server would cost a server and a capture-proxy process per run (five runs a file).
const example = new InProcessServer({ name: 'example', factory: createExampleServer });

/** The prompt the trials send: the model answers it with one shipping_quote call, then the quote. */
const QUOTE_PROMPT = 'Get a shipping quote for a 2 kg parcel to the local zone.';

/** A fake provider (every dialect) scripted by content: a shipping_quote call, then `Quoted: <result>.`. */
function quotingModel(): FakeModelServer {
  return new FakeModelServer({ maxRequests: 40, maxRounds: 3 })
    .when({ tool: 'shipping_quote', afterToolResult: false }, (request) => ({
      toolCalls: [{ name: offeredTool(request, 'shipping_quote')!, arguments: { weight_kg: 2, zone: 'local' } }],
    }))
    .when({ afterToolResult: true }, (request) => ({
      content: `Quoted: ${trailingToolResults(request)
        .map((r) => r.text)
        .join(' | ')}.`,
    }));
}

/** What a replayed trial must reproduce of its recorded run (and how it was served). */
interface TrialSummary {
  readonly outcome: string | null;
  readonly answer: string | null;
  /** Tool calls as the trace reports them: tool, server, status, arguments. */
  readonly toolCalls: readonly unknown[];
  /** `tools/call` requests the capture proxy saw on the wire: name and arguments. */
  readonly wireCalls: readonly unknown[];
  /** Verdicts of two built-in evaluators: name, status, score, rationale. */
  readonly verdicts: readonly unknown[];
  readonly cassette: string | undefined;
  readonly error: { readonly code: string; readonly message: string } | null;
}

const EVALUATORS = ['m3.execution.completed.v1', 'm3.tool_call.succeeded.v1'];

async function summarize(kit: MCPTestKit, result: ExecutionResult): Promise<TrialSummary> {
  const verdicts = [];
  for (const name of EVALUATORS) {
    const verdict = await kit.evaluate(result, name);
    verdicts.push({ name, status: verdict.status, score: verdict.score, rationale: verdict.rationale });
  }
  return {
    outcome: result.snapshot.outcome,
    answer: result.turns.at(-1)?.response?.text ?? null,
    toolCalls: result.traceView.toolCalls.map((c) => ({
      tool: c.tool.value,
      server: c.server,
      status: c.status,
      arguments: c.arguments.value,
    })),
    wireCalls: result.trace.events
      .filter((e) => e.kind === 'tool.call_requested' && e.origin === 'wire_observed')
      .map((e) => {
        const params = e.payload.params as { name: string; arguments?: unknown };
        return { name: params.name, arguments: params.arguments };
      }),
    verdicts,
    cassette: result.snapshot.metadata?.cassette,
    error: result.error ? { code: result.error.code, message: result.error.message } : null,
  };
}

/** A summary without how it was served: what record and replay must agree on. */
function withoutCassetteUse(summary: TrialSummary): Omit<TrialSummary, 'cassette'> {
  const { cassette: _cassette, ...rest } = summary;
  return rest;
}

/** One harness under test: its selection for a model endpoint, and what its model requests look like. */
export interface CassetteHarness {
  /** Harness kind, as the channel key and the temp folders name it. */
  readonly kind: 'claude_code' | 'codex' | 'opencode' | 'pi';
  /** The channel key of trial 1 (`<harness> <model> trial 1`). */
  readonly channel: string;
  /** The `kit.agents` selection with the model endpoint at `origin` (the fixture in its model-driven mode). */
  selection(origin: string): Readonly<Record<string, unknown>>;
  readonly dialect: FakeModelDialect;
  /** The path the CLI posts its model requests to. */
  readonly path: string;
  /** Where the request carried the key, as the provider received it while recording. */
  keyOf(request: FakeModelRequest): string | undefined;
}

/** A temp folder standing for the test file's folder, and the book of its test file in `mode`. */
class CassetteFolder {
  constructor(readonly dir: string) {}

  static async make(): Promise<CassetteFolder> {
    return new CassetteFolder(await mkdtemp(join(tmpdir(), 'm3-cli-cassette-')));
  }

  book(mode: CassetteMode): CassetteBook {
    return openCassetteBook({
      testFile: join(this.dir, TEST_FILE),
      testPath: TEST_FILE,
      settings: { mode, update: false },
    });
  }

  /** The cassette file's bytes, as text. */
  text(): Promise<string> {
    return readFile(join(this.dir, '__cassettes__', `${TEST_FILE}.cassette.json`), 'utf8');
  }

  remove(): Promise<void> {
    return rm(this.dir, { recursive: true, force: true });
  }
}

/** Runs `trials` trials of the harness one after another in one kit (one scope of `book`), then finishes the book. */
async function runTrials(
  harness: CassetteHarness,
  book: CassetteBook,
  origin: string,
  prompt: string,
  trials: number,
): Promise<{ trials: TrialSummary[]; report: CassetteBookReport }> {
  const kit = new MCPTestKit({ cassettes: book.scope(TEST_NAME) });
  const summaries: TrialSummary[] = [];
  // The book is finished even when a run throws, so no proxy of its channels is left listening.
  let report: Promise<CassetteBookReport> | undefined;
  try {
    for (const agent of kit.agents([harness.selection(origin) as never], { trials })) {
      const result = await agent.run(prompt, { servers: [example], timeoutMs: 60_000 });
      summaries.push(await summarize(kit, result));
    }
  } finally {
    await kit.close();
    report = book.finish({ fullRun: true });
  }
  return { trials: summaries, report: await report };
}

/**
 * The record → replay suite of one native harness (issue 24 item 5): two trials recorded once per
 * file against a live FakeModelServer, replayed from a new book with the endpoint at a closed port
 * and no key (same outcome, answer, tool calls reported and on the wire, verdicts;
 * `metadata.cassette` `recorded` then `replayed`); the file holds no key; a changed prompt in
 * replay of that same recording is a `cassette_miss`.
 */
export function describeCassetteRoundTrip(harness: CassetteHarness): void {
  describe(`${harness.kind} recorded and replayed through a cassette (model-driven fixture CLI)`, () => {
    let folder: CassetteFolder;
    let fake: FakeModelServer;
    let recorded: { trials: TrialSummary[]; report: CassetteBookReport };
    /** What the live provider received while recording: dialect, path, streamed, the key it got. */
    let modelRequests: unknown[];
    // One live recording per file: both tests replay it (each replay runs the CLI again).
    beforeAll(async () => {
      ensureBuilt();
      folder = await CassetteFolder.make();
      fake = quotingModel();
      await fake.start();
      process.env[KEY_ENV] = KEY;
      try {
        recorded = await runTrials(harness, folder.book('record'), fake.origin, QUOTE_PROMPT, 2);
        modelRequests = fake.modelRequests.map((r) => [r.dialect, r.path, r.stream, harness.keyOf(r)]);
      } finally {
        await fake.close();
        delete process.env[KEY_ENV];
      }
    }, 180_000);
    afterAll(async () => {
      await folder?.remove();
    });

    it('records two trials live, then replays them with the endpoint closed and no key: same calls and verdicts', async () => {
      // The CLI spoke its own dialect, streamed, and the live provider got the key.
      expect(modelRequests).toEqual(Array(4).fill([harness.dialect, harness.path, true, KEY]));
      const replayed = await runTrials(harness, folder.book('replay'), CLOSED_ORIGIN, QUOTE_PROMPT, 2);

      for (const trial of recorded.trials) {
        expect(trial).toMatchObject({ outcome: 'completed', answer: 'Quoted: {"amount":9,"currency":"USD"}.' });
        expect(trial.wireCalls).toEqual([{ name: 'shipping_quote', arguments: { weight_kg: 2, zone: 'local' } }]);
        expect(trial.verdicts.map((v) => (v as { status: string }).status)).toEqual(['passed', 'passed']);
      }
      expect(replayed.trials.map(withoutCassetteUse)).toEqual(recorded.trials.map(withoutCassetteUse));
      expect(recorded.trials.map((t) => t.cassette)).toEqual(['recorded', 'recorded']);
      expect(replayed.trials.map((t) => t.cassette)).toEqual(['replayed', 'replayed']);
      expect([recorded.report.recorded, recorded.report.written]).toEqual([4, true]);
      expect([replayed.report.replayed, replayed.report.recorded, replayed.report.written]).toEqual([4, 0, false]);

      const file = await folder.text();
      const cassette = JSON.parse(file) as { tests: Record<string, { channels: Record<string, unknown[]> }> };
      expect(Object.keys(cassette.tests[TEST_NAME]!.channels)).toEqual([
        harness.channel,
        harness.channel.replace(/trial 1$/, 'trial 2'),
      ]);
      // No key, bearer token or key header in the bytes; the run's temp folders are placeholders.
      for (const secret of [KEY, 'Bearer', 'x-api-key', 'authorization']) expect(file).not.toContain(secret);
      expect(file).not.toContain(`m3-${harness.kind.replace('_', '-')}-`);
      expect(file).toContain('<volatile:');
    }, 120_000);

    it('a changed prompt in replay fails the execution with cassette_miss, naming the changed request', async () => {
      const changed = QUOTE_PROMPT.replace('2 kg', '5 kg');
      const { trials } = await runTrials(harness, folder.book('replay'), CLOSED_ORIGIN, changed, 1);

      expect(trials[0]!.error?.code).toBe('cassette_miss');
      const message = trials[0]!.error!.message;
      expect(message).toContain(`"${TEST_NAME}"`);
      expect(message).toContain(`channel "${harness.channel}"`);
      expect(message).toMatch(/- .*2 kg/);
      expect(message).toMatch(/\+ .*5 kg/);
      expect(message).toContain('--update-cassettes');
      expect(trials[0]!.wireCalls).toEqual([]);
    }, 120_000);
  });
}
