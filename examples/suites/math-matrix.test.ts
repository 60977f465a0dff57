// The math matrix (the seeds' "Evaluate repeated agent trials" and "Calculate the final score"):
// ten cases × two configurations × two trials = 40 independently scored agent executions, each
// evaluated on its answer and its tool evidence, then aggregated per configuration
// (`metadata.harness_config`, e.g. `openai:careful`). The two "models" are one fake Chat
// Completions server scripted by request content: `careful` gets every case right, `sloppy` picks
// the wrong tool, misreads a result or skips the tool on three cases — so the rates are exact.
// The same matrix runs on native harnesses (OpenCode, Codex) in the opt-in run: examples/native.
import type { ExecutionStore } from 'sf-m3';
import { FakeChatCompletionsServer } from 'sf-m3/testing';
import { CASES, SLOPPY, evaluateMath, scriptMathModel } from '../fixtures/math/mathModel';
import type { MathSubject } from '../fixtures/math/mathModel';
import { mathServer } from './servers';

// The model here is a fake this file starts itself: offline and deterministic already, and the
// tests read the requests it received. So no cassette (contract §24): `mode: 'off'`, live, nothing
// written, in `npm run examples` with and without CI=true (whose default would replay).
describe.m3('math matrix', { cassettes: { mode: 'off' } }, () => {
  // The cases, the script and the evaluator are shared with the native run (examples/native).
  const model = scriptMathModel(new FakeChatCompletionsServer());
  let baseUrl: string;
  // Under `m3 test` every kit of this file saves into the run's results database; the last test's
  // kit store and run id are kept for the aggregation in afterAll.
  let store: ExecutionStore | undefined;
  let runId: string | undefined;

  beforeAll(async () => {
    ({ baseUrl } = await model.start());
  });

  test.each(CASES)('$id: two configurations × two trials, each evaluated', async (mathCase) => {
    m3Kit.registerEvaluator('example.math.v1', evaluateMath);
    const agents = m3Kit.agents([{ harness: 'openai', models: ['careful', 'sloppy'], baseUrl, auth: 'none' }], {
      trials: 2,
    });
    expect(agents.map((a) => `${a.model}#${a.trial}`)).toEqual(['careful#1', 'careful#2', 'sloppy#1', 'sloppy#2']);

    // Four independent executions of one logical case, sharing its case id.
    const verdicts = await Promise.all(
      agents.map(async (agent) => {
        const session = await agent.session({ servers: [mathServer], caseId: `math-${mathCase.id}` });
        const turn = await session.send(mathCase.prompt);
        const result = await session.close();
        expect(result).toBeCompleted();
        if (agent.model === 'careful') {
          expect(result).toHaveToolCall(mathCase.tool, { arguments: mathCase.arguments, status: 'success' });
        }
        const subject: MathSubject = {
          answer: turn.response?.text ?? '',
          expected: mathCase.expected,
          expectedTool: mathCase.tool,
          usedTools: result.traceView.toolCalls.map((call) => call.tool.value ?? ''),
        };
        const verdict = await m3Kit.evaluate(subject, 'example.math.v1', {
          executionId: result.executionId,
          turnId: turn.turnId,
        });
        expect(verdict.caseId).toBe(`math-${mathCase.id}`);
        return [agent.model, verdict.status] as const;
      }),
    );
    const sloppyStatus = SLOPPY[mathCase.id] === undefined ? 'passed' : 'failed';
    expect(verdicts).toEqual([
      ['careful', 'passed'],
      ['careful', 'passed'],
      ['sloppy', sloppyStatus],
      ['sloppy', sloppyStatus],
    ]);
    store = m3Kit.store;
    runId = m3Kit.runId;
  });

  afterAll(async () => {
    await model.close();
    if (store === undefined || runId === undefined) return; // the cases did not run (e.g. filtered out)
    // Without `m3 test` (plain `npx jest`) nothing is persisted: each test's kit had a store of its
    // own, closed with the test, so there is no run history to aggregate across the cases.
    if (process.env.M3_RESULTS_DB === undefined) {
      console.log('math matrix: the cross-case aggregation needs the run history; run it with `npm run examples`');
      return;
    }
    // Filter by evaluator and run, so older rows in the same database stay out of the rate.
    const report = await store.aggregateEvaluations({
      filters: { evaluator: ['example.math.v1'], runId: [runId] },
      groupBy: ['metadata.harness_config'],
    });
    const rates = Object.fromEntries(
      report.groups.map((group) => [group.key['metadata.harness_config'], group.values.passRate]),
    );
    console.log(
      [
        `math matrix: ${report.totals.passedCount}/${report.totals.expectedCount} passed`,
        ...report.groups.map(
          (g) =>
            `  ${String(g.key['metadata.harness_config'])}  pass rate ${g.values.passRate}  ` +
            `(${g.values.passedCount}/${g.values.expectedCount}, pass^k ${g.values.casesAllPassed}/${g.values.caseCount} cases)`,
        ),
      ].join('\n'),
    );
    expect(report.totals.expectedCount).toBe(40);
    expect(report.totals.caseCount).toBe(10);
    expect(rates).toEqual({ 'openai:careful': 1, 'openai:sloppy': 0.7 });
  });
});
