// The math matrix (the seeds' "Evaluate repeated agent trials" and "Calculate the final score"):
// ten cases × two configurations × two trials = 40 independently scored agent executions, each
// evaluated on its answer and its tool evidence, then aggregated per configuration
// (`metadata.harness_config`, e.g. `openai:careful`). The two "models" are one fake Chat
// Completions server scripted by request content: `careful` gets every case right, `sloppy` picks
// the wrong tool, misreads a result or skips the tool on three cases — so the rates are exact.
import type { EvaluationContext, ExecutionStore } from 'sf-m3';
import type { FakeModelRequest } from 'sf-m3/testing';
import { FakeChatCompletionsServer, trailingToolResults } from 'sf-m3/testing';
import { mathServer } from './servers';

interface MathCase {
  readonly id: string;
  readonly prompt: string;
  readonly expected: number;
  readonly tool: string;
  readonly arguments: Record<string, number | number[]>;
}

const CASES: readonly MathCase[] = [
  { id: 'add', prompt: 'What is 2 + 3?', expected: 5, tool: 'add_tool', arguments: { a: 2, b: 3 } },
  { id: 'subtract', prompt: 'What is 10 - 4?', expected: 6, tool: 'subtract_tool', arguments: { a: 10, b: 4 } },
  { id: 'multiply', prompt: 'What is 6 * 7?', expected: 42, tool: 'multiply_tool', arguments: { a: 6, b: 7 } },
  { id: 'divide', prompt: 'What is 84 / 2?', expected: 42, tool: 'divide_tool', arguments: { a: 84, b: 2 } },
  { id: 'power', prompt: 'What is 2 ^ 10?', expected: 1024, tool: 'power_tool', arguments: { a: 2, b: 10 } },
  { id: 'modulo', prompt: 'What is 17 % 5?', expected: 2, tool: 'modulo_tool', arguments: { a: 17, b: 5 } },
  {
    id: 'average',
    prompt: 'What is the average of 2, 4 and 9?',
    expected: 5,
    tool: 'average_tool',
    arguments: { values: [2, 4, 9] },
  },
  {
    id: 'min',
    prompt: 'What is the smallest of 7, 3 and 9?',
    expected: 3,
    tool: 'min_tool',
    arguments: { values: [7, 3, 9] },
  },
  {
    id: 'max',
    prompt: 'What is the largest of 7, 3 and 9?',
    expected: 9,
    tool: 'max_tool',
    arguments: { values: [7, 3, 9] },
  },
  { id: 'sqrt', prompt: 'What is the square root of 81?', expected: 9, tool: 'sqrt_tool', arguments: { value: 81 } },
];

/** Where `sloppy` goes wrong: a wrong tool, a misread result, no tool at all. Every other case is right. */
const SLOPPY: Readonly<Record<string, 'wrong_tool' | 'misread' | 'no_tool'>> = {
  subtract: 'wrong_tool',
  divide: 'misread',
  sqrt: 'no_tool',
};

/** A reply asking for one math tool (offered to the model as `math__<tool>`). */
function callTool(tool: string, args: Record<string, number | number[]>) {
  return { toolCalls: [{ name: `math__${tool}`, arguments: args }] };
}

/** The number in the tool result the request carries (the math tools answer `{"result": n}`). */
function resultOf(request: FakeModelRequest): number {
  return (JSON.parse(trailingToolResults(request)[0]?.text ?? '{}') as { result?: number }).result ?? NaN;
}

/**
 * The fake model's script as content-matched rules (the first matching rule answers): the model the
 * request names and the question decide the tool call; a request carrying a tool result is answered
 * with that result — misread by one for `sloppy` on `divide`.
 */
function scriptModel(model: FakeChatCompletionsServer): void {
  for (const mathCase of CASES) {
    const question = { lastUserText: mathCase.prompt, afterToolResult: false };
    const mistake = SLOPPY[mathCase.id];
    model.when({ ...question, model: 'careful' }, callTool(mathCase.tool, mathCase.arguments));
    model.when(
      { ...question, model: 'sloppy' },
      mistake === 'no_tool'
        ? { content: `The answer is ${mathCase.expected}.` }
        : callTool(mistake === 'wrong_tool' ? 'add_tool' : mathCase.tool, mathCase.arguments),
    );
    if (mistake === 'misread') {
      model.when({ lastUserText: mathCase.prompt, afterToolResult: true, model: 'sloppy' }, (request) => ({
        content: `The answer is ${resultOf(request) - 1}.`,
      }));
    }
  }
  model.when({ afterToolResult: true }, (request) => ({ content: `The answer is ${resultOf(request)}.` }));
}

/** What `example.math.v1` scores: the final answer and the tools the trace shows were called. */
interface MathSubject {
  readonly answer: string;
  readonly expected: number;
  readonly expectedTool: string;
  readonly usedTools: string[];
}

/** Passes when the answer states the expected number and the expected tool was called. */
function evaluateMath(ctx: EvaluationContext) {
  const subject = ctx.subject as MathSubject;
  const numbers = (subject.answer.match(/-?\d+(?:\.\d+)?/g) ?? []).map(Number);
  const answerOk = numbers.includes(subject.expected);
  const toolOk = subject.usedTools.includes(subject.expectedTool);
  const passed = answerOk && toolOk;
  return {
    status: passed ? ('passed' as const) : ('failed' as const),
    score: passed ? 1 : 0,
    rationale: `answer_ok=${answerOk}; tool_ok=${toolOk}`,
  };
}

describe.m3('math matrix', () => {
  const model = new FakeChatCompletionsServer();
  scriptModel(model);
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
