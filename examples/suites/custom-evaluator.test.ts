// Evaluations: name what "good" means, save the verdict with its evidence, and gate on it.
import type { EvaluationContext } from 'sf-m3';
import { mathServer } from './servers';

function answerIs(expected: number) {
  return (ctx: EvaluationContext) => {
    const value = (ctx.subject as { structuredContent?: { result?: number } }).structuredContent?.result;
    return value === expected
      ? { status: 'passed' as const, score: 1, rationale: `result is ${expected}` }
      : { status: 'failed' as const, score: 0, rationale: `expected ${expected}, got ${String(value)}` };
  };
}

describe.m3('custom evaluator', () => {
  test('an evaluator scores a tool result and the verdict is saved', async () => {
    m3Kit.registerEvaluator('example.math.sum.v1', answerIs(5));
    const client = await m3Kit.direct(mathServer).connect();
    const sum = await client.callTool('add_tool', { a: 2, b: 3 });

    const verdict = await m3Kit.evaluate(sum, 'example.math.sum.v1', { executionId: client.executionId });
    expect(verdict.status).toBe('passed');
    expect(verdict.score).toBe(1);
    expect(m3Kit.evaluationResults()).toContainEqual(verdict);
  });

  test('built-in evaluators check executions and outputs', async () => {
    const client = await m3Kit.direct(mathServer).connect();
    const product = await client.callTool('multiply_tool', { a: 6, b: 7 });
    await client.close();

    expect((await m3Kit.evaluate(client.result, 'm3.execution.completed.v1')).status).toBe('passed');
    expect((await m3Kit.evaluate(product, 'm3.output.has_text.v1')).status).toBe('passed');
  });

  test('a required evaluation gates the test', async () => {
    m3Kit.registerEvaluator('example.math.division.v1', answerIs(3));
    const client = await m3Kit.direct(mathServer).connect();
    const quotient = await client.callTool('divide_tool', { a: 9, b: 3 });

    // A required verdict that is not `passed` is saved, then thrown as RequiredEvaluationError,
    // and fails the run even when a test catches it.
    const verdict = await m3Kit.evaluate(quotient, 'example.math.division.v1', { required: true });
    expect(verdict).toMatchObject({ status: 'passed', required: true, executionId: client.executionId });
  });
});
