// The seeds' math matrix on native harnesses: the same ten cases, fake model script and evaluator as
// examples/suites/math-matrix.test.ts, run as
//   m3 test --harness opencode=fake/careful --harness codex=sloppy --trials 2
// so `test.m3` expands each case to one execution per harness, model and trial (10 × 2 × 2 = 40),
// each driving the real CLI (OpenCode's server, Codex's app-server) against the math server through
// the kit's capture proxy. Opt-in: `npm run e2e:real-agents -- --only math` starts the fake model
// (one FakeModelServer answering OpenCode's Chat Completions and Codex's Responses requests by
// content) and hands this suite its native entries — `{ harness, executable, baseUrl }` — in
// M3_MATH_NATIVE_AGENTS; `--harness` replaces their models and keeps the rest (contract §18).
import type { ExecutionStore } from 'sf-m3';
import { CASES, evaluateMath, expectedStatus } from '../fixtures/math/mathModel';
import type { MathSubject } from '../fixtures/math/mathModel';
import { mathServer } from '../suites/servers';

const AGENTS_ENV = 'M3_MATH_NATIVE_AGENTS';

/** The pass rate of `example.math.v1` per scripted model (by the last part of the model name). */
const PASS_RATE: Readonly<Record<string, number>> = { careful: 1, sloppy: 0.7 };

/** The suite's agents entries, from the runner; a clear error when the suite is run on its own. */
function nativeAgents(): Record<string, unknown>[] {
  const raw = process.env[AGENTS_ENV];
  if (raw === undefined || raw === '') {
    throw new Error(
      `${AGENTS_ENV} is not set: run this suite through \`npm run e2e:real-agents -- --only math\`, which ` +
        'starts the fake model and sets it to [{ harness, executable, baseUrl }, ...]',
    );
  }
  const entries = JSON.parse(raw) as unknown;
  if (!Array.isArray(entries) || entries.some((e) => typeof (e as { harness?: unknown })?.harness !== 'string')) {
    throw new Error(`${AGENTS_ENV} must be a JSON list of { harness, models, executable, baseUrl } entries`);
  }
  return entries as Record<string, unknown>[];
}

describe.m3('native math', { agents: nativeAgents() }, () => {
  let store: ExecutionStore | undefined;
  let runId: string | undefined;
  let executions = 0;

  for (const mathCase of CASES) {
    test.m3(mathCase.id, async ({ kit, agent }) => {
      kit.registerEvaluator('example.math.v1', evaluateMath);
      const session = await agent!.session({ servers: [mathServer], timeoutMs: 150_000 });
      const turn = await session.send(mathCase.prompt);
      const result = await session.close();
      executions += 1;
      expect(result).toBeCompleted();
      expect(result.traceView.runtime.kind).toBe(agent!.harness);
      if (expectedStatus(agent!.model, mathCase.id) === 'passed') {
        expect(result).toHaveToolCall(mathCase.tool, {
          server: 'math',
          arguments: mathCase.arguments,
          status: 'success',
        });
      }
      const subject: MathSubject = {
        answer: turn.response?.text ?? '',
        expected: mathCase.expected,
        expectedTool: mathCase.tool,
        usedTools: result.traceView.toolCalls.map((call) => call.tool.value ?? ''),
      };
      const verdict = await kit.evaluate(subject, 'example.math.v1', {
        executionId: result.executionId,
        turnId: turn.turnId,
      });
      expect(verdict.status).toBe(expectedStatus(agent!.model, mathCase.id));
      store = kit.store;
      runId = kit.runId;
    });
  }

  afterAll(async () => {
    if (store === undefined || runId === undefined) return; // no case ran (e.g. filtered out)
    const report = await store.aggregateEvaluations({
      filters: { evaluator: ['example.math.v1'], runId: [runId] },
      groupBy: ['metadata.harness_config'],
    });
    console.log(
      [
        `math matrix (native): ${report.totals.passedCount}/${report.totals.expectedCount} passed`,
        ...report.groups.map(
          (g) =>
            `  ${String(g.key['metadata.harness_config'])}  pass rate ${g.values.passRate}  ` +
            `(${g.values.passedCount}/${g.values.expectedCount}, pass^k ${g.values.casesAllPassed}/${g.values.caseCount} cases)`,
        ),
      ].join('\n'),
    );
    expect(report.totals.expectedCount).toBe(executions);
    expect(report.totals.caseCount).toBe(CASES.length);
    for (const group of report.groups) {
      const config = String(group.key['metadata.harness_config']); // `<harness>:<model>`
      const model = config.slice(config.indexOf(':') + 1).replace(/^.*\//, '');
      expect([config, group.values.passRate]).toEqual([config, PASS_RATE[model]]);
    }
  });
});
