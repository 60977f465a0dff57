// Helpers for the native CLIs' cassette tests (`<harness>/*.cassette.test.ts`): one test's agent
// trials run through a kit carrying a real cassette book's scope, summarized as what a replay must
// reproduce (outcome, answer, tool calls reported and on the wire, verdicts, cassette use).
import type { CassetteBookReport } from '../../../cassettes/CassetteBook';
import type { CassetteMode } from '../../../cassettes/CassetteMode';
import { MCPTestKit } from '../../../kit/MCPTestKit';
import type { ExecutionResult } from '../../../execution/ExecutionResult';
import type { ServerDefinition } from '../../../servers/ServerDefinition';
import { FakeModelServer } from '../../../testing/FakeModelServer';
import { offeredTool, trailingToolResults } from '../../../testing/fakeModelRequest';

/** A loopback port nothing listens on: a client pointed there in replay proves no connection is made. */
export const CLOSED_ORIGIN = 'http://127.0.0.1:9';

/** The prompt the trials send; the model answers it with one shipping_quote call, then the quote. */
export const QUOTE_PROMPT = 'Get a shipping quote for a 2 kg parcel to the local zone.';

/** A fake provider (every dialect) scripted by content: a shipping_quote call, then `Quoted: <result>.`. */
export function quotingModel(): FakeModelServer {
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

/** What a replayed trial must reproduce of its recorded run. */
export interface TrialSummary {
  readonly outcome: string | null;
  readonly answer: string | null;
  /** Tool calls as the trace reports them: tool, server, status, arguments. */
  readonly toolCalls: readonly unknown[];
  /** `tools/call` requests seen on the wire by the capture proxy: name and arguments. */
  readonly wireCalls: readonly unknown[];
  /** The verdicts of two built-in evaluators: name, status, score, rationale. */
  readonly verdicts: readonly unknown[];
  readonly cassette: string | undefined;
  readonly error: { readonly code: string; readonly message: string } | null;
}

const VERDICTS = ['m3.execution.completed.v1', 'm3.tool_call.succeeded.v1'];

async function summarize(kit: MCPTestKit, result: ExecutionResult): Promise<TrialSummary> {
  const verdicts = [];
  for (const name of VERDICTS) {
    const v = await kit.evaluate(result, name);
    verdicts.push({ name, status: v.status, score: v.score, rationale: v.rationale });
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

/** One test's trials of one agent selection. */
export interface TrialRun {
  /** The book of the test file, or null to run without cassettes. */
  readonly book: {
    scope(testName: string): MCPTestKit['cassettes'];
    finish(o: { fullRun: boolean }): Promise<CassetteBookReport>;
  } | null;
  readonly testName: string;
  /** `kit.agents` selection (harness, executable, models, baseUrl, env...). */
  readonly selection: Readonly<Record<string, unknown>>;
  readonly prompt: string;
  readonly servers: readonly ServerDefinition[];
  readonly trials: number;
}

/** Runs the trials one after another in one kit (one scope of the book), then finishes the book. */
export async function runTrials(run: TrialRun): Promise<{ trials: TrialSummary[]; report: CassetteBookReport | null }> {
  const scope = run.book?.scope(run.testName) ?? null;
  const kit = new MCPTestKit(scope ? { cassettes: scope } : {});
  const trials: TrialSummary[] = [];
  try {
    const agents = kit.agents([run.selection as never], { trials: run.trials });
    for (const agent of agents) {
      const result = await agent.run(run.prompt, { servers: [...run.servers], timeoutMs: 60_000 });
      trials.push(await summarize(kit, result));
    }
  } finally {
    await kit.close();
  }
  const report = run.book ? await run.book.finish({ fullRun: true }) : null;
  return { trials, report };
}

/** Placeholder so the mode type is used by callers that name a mode. */
export type { CassetteMode };
