import { RequiredEvaluationError } from '../errors/RequiredEvaluationError';
import { ModelValidationError } from '../errors/M3Error';
import type { JsonValue } from '../json';
import { Redactor, toJsonValue } from '../redaction/Redactor';
import { InMemoryExecutionStore } from '../store/InMemoryExecutionStore';
import type { ExecutionRecord } from '../store/records';
import { executionRecord, finishedTrace } from '../store/storeFixtures.testkit';
import { EvaluationEngine, type EvaluationContextSource } from './EvaluationEngine';
import type { EvaluationContext } from './EvaluatorCallback';
import { subjectDigest } from './subjectDigest';

const SECRET = 'sk-canary-0123456789';

function setup(overrides: Partial<EvaluationContextSource> = {}) {
  const store = new InMemoryExecutionStore();
  const redactor = new Redactor([SECRET]);
  const executions = new Map<string, ExecutionRecord>();
  const source: EvaluationContextSource = {
    store,
    redactor,
    runId: 'run-' + 'a'.repeat(32),
    suiteName: 'catalog',
    caseId: 'kit-case',
    executionLabels: async (id) => executions.get(id)?.labels ?? null,
    ...overrides,
  };
  const engine = new EvaluationEngine(source);
  const addExecution = async (fields: Partial<ExecutionRecord> = {}, finish = false) => {
    const record = executionRecord({ runId: source.runId, suiteName: 'catalog', caseId: 'normalize/ada', ...fields });
    executions.set(record.executionId, record);
    await store.createExecution(record);
    if (finish) await store.finishExecution(finishedTrace(record.executionId).finished);
    return record;
  };
  return { store, redactor, engine, source, addExecution };
}

describe('EvaluationEngine.evaluate', () => {
  it('runs a sync callback and saves the verdict with its labels', async () => {
    const { engine, store, addExecution } = setup();
    const exec = await addExecution({
      labels: { harness: 'acp', model: 'fixture', metadata: { lane: 'fast' } } as never,
    });
    engine.register('project.answer.v1', () => ({
      status: 'passed',
      score: 0.75,
      rationale: 'answer ok',
      metrics: { tokens: 12, exact: true },
    }));
    const result = await engine.evaluate({ answer: '5' }, 'project.answer.v1', {
      executionId: exec.executionId,
      metadata: { variant: 'b', attempt: 2 },
    });
    expect(result).toMatchObject({
      evaluator: 'project.answer.v1',
      status: 'passed',
      score: 0.75,
      rationale: 'answer ok',
      metrics: { tokens: 12, exact: true },
      required: false,
      executionId: exec.executionId,
      turnId: null,
      caseId: 'normalize/ada',
      metadata: { variant: 'b', attempt: 2 },
      provenance: { kind: 'callback', evaluator: 'project.answer.v1' },
    });
    expect(result.evaluationId).toMatch(/^eval-[0-9a-f]{32}$/);
    expect(result.subjectDigest).toBe(subjectDigest({ answer: '5' }));
    const rows = await store.listEvaluations({ executionId: exec.executionId });
    expect(rows).toEqual([result]);
    const report = await store.aggregateEvaluations({
      filters: {
        evaluator: ['project.answer.v1'],
        harness: ['acp'],
        'metadata.variant': ['b'],
        'metadata.lane': ['fast'],
      },
    });
    expect(report.totals.evaluationCount).toBe(1);
    expect(engine.results()).toEqual([result]);
  });

  it('awaits async callbacks and passes status strings and booleans through', async () => {
    const { engine } = setup();
    engine.register('async.v1', async () => {
      await new Promise((r) => setTimeout(r, 5));
      return 'inconclusive' as const;
    });
    engine.register('bool.v1', () => false);
    engine.register('notrun.v1', () => ({ status: 'not_run' }));
    expect((await engine.evaluate('x', 'async.v1')).status).toBe('inconclusive');
    const failed = await engine.evaluate('x', 'bool.v1');
    expect([failed.status, failed.score, failed.rationale]).toEqual(['failed', null, null]);
    expect((await engine.evaluate('x', 'notrun.v1')).status).toBe('not_run');
  });

  it('gives the callback a redacted subject and stores only its digest', async () => {
    const { engine, store } = setup();
    let seen: EvaluationContext | undefined;
    engine.register('peek.v1', (ctx) => {
      seen = ctx;
      return { status: 'passed', rationale: `saw ${JSON.stringify(ctx.subject)}` };
    });
    const subject = { answer: `the key is ${SECRET}`, nested: { apiKey: 'abc-not-canary' } };
    const result = await engine.evaluate(subject, 'peek.v1', { metadata: { note: SECRET } });
    expect(seen?.subject).toEqual({ answer: 'the key is [REDACTED]', nested: { apiKey: '[REDACTED]' } });
    expect(seen?.metadata).toEqual({ note: '[REDACTED]' });
    expect(result.subjectDigest).toBe(subjectDigest(seen?.subject as JsonValue));
    expect(result.subjectDigest).not.toBe(subjectDigest(toJsonValue(subject)));
    const dump = JSON.stringify(await store.listEvaluations({}));
    expect(dump).not.toContain(SECRET);
    expect(dump).not.toContain('abc-not-canary');
  });

  it('records a throwing callback as an error naming the problem, redacted', async () => {
    const { engine } = setup();
    engine.register('throws.v1', () => {
      throw new TypeError(`cannot read answer with ${SECRET}`);
    });
    const result = await engine.evaluate({}, 'throws.v1');
    expect(result.status).toBe('error');
    expect(result.score).toBeNull();
    expect(result.rationale).toBe('evaluator threw TypeError: cannot read answer with [REDACTED]');
  });

  it.each([
    [42, 'expected a decision object, a status string or a boolean, got a number'],
    ['ok', 'status "ok" is not one of'],
    [{ status: 'passed', score: 1.5 }, 'score must be a number between 0 and 1 or null, got 1.5'],
    [{ status: 'passed', score: Number.NaN }, 'score must be a number between 0 and 1'],
    [{ status: 'great' }, 'status must be one of'],
    [{ status: 'passed', rationale: 7 }, 'rationale must be a string or null'],
    [{ status: 'passed', metrics: { latency: Infinity } }, 'metric "latency" must be a finite number'],
    [{ status: 'passed', verdict: 'yes' }, 'unknown decision field(s): verdict'],
    [undefined, 'got a undefined'],
  ])('records a malformed return %p as an error', async (returned, problem) => {
    const { engine } = setup();
    engine.register('bad.v1', () => returned as never);
    const result = await engine.evaluate({}, 'bad.v1');
    expect(result.status).toBe('error');
    expect(result.rationale).toContain('evaluator returned a malformed decision: ');
    expect(result.rationale).toContain(problem);
  });

  it('bounds the rationale to 2000 characters after redaction', async () => {
    const { engine } = setup();
    engine.register('long.v1', () => ({ status: 'failed', rationale: `${SECRET} ${'x'.repeat(5000)}` }));
    const result = await engine.evaluate({}, 'long.v1');
    expect(result.rationale).toHaveLength(2000);
    expect(result.rationale?.startsWith('[REDACTED] xxx')).toBe(true);
    expect(result.rationale?.endsWith('…')).toBe(true);
  });

  it('validates names and registrations', async () => {
    const { engine } = setup();
    const cb = () => true;
    expect(() => engine.register('', cb)).toThrow(ModelValidationError);
    expect(() => engine.register('x'.repeat(257), cb)).toThrow(/1–256 characters/);
    engine.register('x'.repeat(256), cb);
    engine.register('dup.v1', cb);
    engine.register('dup.v1', cb); // same callback: no-op
    expect(() => engine.register('dup.v1', () => false)).toThrow(
      'cannot register evaluator dup.v1: it is already registered',
    );
    expect(() => engine.register('m3.output.has_text.v1', cb)).toThrow(/built-in evaluator name/);
    expect(() => engine.register('nofn.v1', 'nope' as never)).toThrow(/callback/);
    await expect(engine.evaluate({}, 'missing.v1')).rejects.toThrow(
      "evaluator missing.v1 is not registered: call kit.registerEvaluator('missing.v1', callback) first",
    );
  });

  it('takes ids from the subject, refuses conflicting ones, and gives the callback the stored trace', async () => {
    const { engine, addExecution } = setup();
    const exec = await addExecution({}, true);
    let ctx: EvaluationContext | undefined;
    engine.register('ctx.v1', (c) => {
      ctx = c;
      return true;
    });
    const turnId = 'turn-' + 'b'.repeat(32);
    const result = await engine.evaluate({ executionId: exec.executionId, turnId, text: 'hi' }, 'ctx.v1');
    expect([result.executionId, result.turnId, result.caseId]).toEqual([exec.executionId, turnId, 'normalize/ada']);
    expect(ctx?.trace?.executionId).toBe(exec.executionId);
    expect(ctx?.trace?.toolCalls).toHaveLength(1);
    await expect(
      engine.evaluate({ executionId: exec.executionId }, 'ctx.v1', { executionId: 'exec-' + 'c'.repeat(32) }),
    ).rejects.toThrow(/evaluation execution IDs do not match/);
    const explicitCase = await engine.evaluate('x', 'ctx.v1', { executionId: exec.executionId, caseId: 'mine' });
    expect(explicitCase.caseId).toBe('mine');
    const detached = await engine.evaluate('x', 'ctx.v1');
    expect([detached.executionId, detached.caseId]).toEqual([null, 'kit-case']);
    expect(ctx?.trace).toBeUndefined();
  });

  it('uses a given TraceResult as the trace', async () => {
    const { engine } = setup();
    const { trace } = finishedTrace('exec-' + 'd'.repeat(32));
    let ctx: EvaluationContext | undefined;
    engine.register('trace.v1', (c) => {
      ctx = c;
      return true;
    });
    await engine.evaluate('x', 'trace.v1', { trace });
    expect(ctx?.trace?.toolCalls).toHaveLength(1);
  });
});

describe('required evaluations', () => {
  it('saves a required non-pass first, then throws carrying the result', async () => {
    const { engine, store, addExecution } = setup();
    const exec = await addExecution();
    engine.register('quality.v1', () => ({ status: 'failed', rationale: 'wrong answer' }));
    const error = await engine.evaluate({ a: 1 }, 'quality.v1', { executionId: exec.executionId, required: true }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(RequiredEvaluationError);
    const result = (error as RequiredEvaluationError).result;
    expect(result).toMatchObject({ status: 'failed', required: true, rationale: 'wrong answer' });
    expect((error as Error).message).toBe('required evaluation quality.v1 failed: wrong answer');
    expect(await store.listEvaluations({ executionId: exec.executionId })).toEqual([result]);
    expect(engine.requiredFailures()).toEqual([result]);
  });

  it.each(['error', 'inconclusive', 'not_run'] as const)('treats a required %s as a failure', async (status) => {
    const { engine } = setup();
    engine.register('q.v1', () => status);
    await expect(engine.evaluate({}, 'q.v1', { required: true })).rejects.toBeInstanceOf(RequiredEvaluationError);
    expect(engine.requiredFailures().map((r) => r.status)).toEqual([status]);
  });

  it('keeps a lineage required after an advisory re-run, and leaves unrelated subjects advisory', async () => {
    const { engine, store, addExecution } = setup();
    const exec = await addExecution();
    let verdict = false;
    engine.register('sticky.v1', () => verdict);
    const opts = { executionId: exec.executionId };
    await expect(engine.evaluate({ q: 1 }, 'sticky.v1', { ...opts, required: true })).rejects.toThrow(
      RequiredEvaluationError,
    );
    // An advisory re-run of the same lineage is stored as required and still blocks when it fails.
    await expect(engine.evaluate({ q: 1 }, 'sticky.v1', opts)).rejects.toThrow(RequiredEvaluationError);
    // An unrelated subject under the same name does not become required.
    const unrelated = await engine.evaluate({ q: 2 }, 'sticky.v1', opts);
    expect([unrelated.status, unrelated.required]).toEqual(['failed', false]);
    // A passing advisory re-run is required too, and clears the failure (latest row per lineage).
    verdict = true;
    const passed = await engine.evaluate({ q: 1 }, 'sticky.v1', opts);
    expect([passed.status, passed.required]).toEqual(['passed', true]);
    expect(engine.requiredFailures()).toEqual([]);
    const latest = await store.listEvaluations({ evaluator: 'sticky.v1' });
    expect(latest.map((r) => [r.status, r.required])).toEqual([
      ['failed', false],
      ['passed', true],
    ]);
  });

  it('reads stickiness from the store, so a new kit on the same store keeps the requirement', async () => {
    const first = setup();
    const exec = await first.addExecution();
    first.engine.register('sticky.v1', () => true);
    await first.engine.evaluate({ q: 1 }, 'sticky.v1', { executionId: exec.executionId, required: true });
    const second = new EvaluationEngine({ ...first.source });
    second.register('sticky.v1', () => false);
    await expect(second.evaluate({ q: 1 }, 'sticky.v1', { executionId: exec.executionId })).rejects.toThrow(
      RequiredEvaluationError,
    );
    expect(second.requiredFailures()).toHaveLength(1);
  });

  it('makes evaluators declared required by the execution spec required', async () => {
    const { engine, addExecution } = setup();
    const exec = await addExecution({ requiredEvaluators: ['spec.v1'] });
    engine.register('spec.v1', () => false);
    engine.register('other.v1', () => false);
    await expect(engine.evaluate({}, 'spec.v1', { executionId: exec.executionId })).rejects.toThrow(
      RequiredEvaluationError,
    );
    expect((await engine.evaluate({}, 'other.v1', { executionId: exec.executionId })).required).toBe(false);
  });

  it('reads an execution record once for its required evaluators (they are fixed at creation)', async () => {
    const { engine, store, addExecution } = setup();
    const exec = await addExecution({ requiredEvaluators: ['spec.v1'] });
    engine.register('spec.v1', (ctx) => ({ status: 'passed', metrics: { n: (ctx.subject as { n: number }).n } }));
    engine.register('other.v1', () => true);
    const reads = jest.spyOn(store, 'getExecution');
    const verdicts = [];
    for (let n = 0; n < 3; n += 1) {
      verdicts.push(await engine.evaluate({ n }, 'spec.v1', { executionId: exec.executionId }));
      verdicts.push(await engine.evaluate({ n }, 'other.v1', { executionId: exec.executionId }));
    }
    expect(verdicts.map((v) => v.required)).toEqual([true, false, true, false, true, false]);
    expect(reads.mock.calls.filter(([id]) => id === exec.executionId)).toHaveLength(1);
  });

  it('does not remember an execution the store did not know yet', async () => {
    const { engine, store, source } = setup();
    engine.register('spec.v1', () => true);
    const record = executionRecord({ runId: source.runId, requiredEvaluators: ['spec.v1'] });
    expect((await engine.evaluate({ a: 1 }, 'spec.v1', { executionId: record.executionId })).required).toBe(false);
    await store.createExecution(record);
    expect((await engine.evaluate({ a: 2 }, 'spec.v1', { executionId: record.executionId })).required).toBe(true);
  });
});

describe('missing and pending required evaluations', () => {
  it('counts a spec-required evaluator as pending while the execution runs, missing once finished, and not once saved', async () => {
    const { engine, store, addExecution } = setup();
    engine.register('spec.v1', () => true);
    const running = await addExecution({ requiredEvaluators: ['spec.v1'] });
    const finished = await addExecution({ requiredEvaluators: ['spec.v1'] }, true);
    const evaluated = await addExecution({ requiredEvaluators: ['spec.v1'] }, true);
    const saved = await engine.evaluate({}, 'spec.v1', { executionId: evaluated.executionId });
    expect(saved.required).toBe(true);
    const report = await store.aggregateEvaluations({ filters: { evaluator: ['spec.v1'] } });
    expect(report.totals).toMatchObject({
      pendingRequiredCount: 1,
      missingRequiredCount: 1,
      passedCount: 1,
      expectedCount: 2,
      passRate: 0.5,
    });
    expect(running.executionId).not.toBe(finished.executionId);
  });
});

describe('recordCheck', () => {
  it('saves matcher verdicts as m3.expect.<matcher> rows, never required', async () => {
    const { engine, store, addExecution } = setup();
    const exec = await addExecution();
    const base = { subject: { executionId: exec.executionId }, executionId: exec.executionId };
    const ok = await engine.recordCheck({
      ...base,
      evaluator: 'm3.expect.toHaveText',
      passed: true,
      rationale: 'ok',
      metadata: { negated: false, testPath: '/t/a.test.ts', line: 10 },
    });
    const bad = await engine.recordCheck({
      ...base,
      evaluator: 'toHaveToolCall',
      passed: false,
      rationale: `expected a call with ${SECRET}`,
      metadata: { negated: true, testPath: '/t/a.test.ts', line: 11 },
    });
    expect(ok).toMatchObject({
      evaluator: 'm3.expect.toHaveText',
      status: 'passed',
      required: false,
      caseId: 'normalize/ada',
    });
    expect(bad).toMatchObject({
      evaluator: 'm3.expect.toHaveToolCall',
      status: 'failed',
      rationale: 'expected a call with [REDACTED]',
      metadata: { negated: true, line: 11 },
      provenance: { kind: 'matcher', matcher: 'toHaveToolCall' },
    });
    expect(await store.listEvaluations({ executionId: exec.executionId })).toHaveLength(2);
    expect(engine.requiredFailures()).toEqual([]);
  });
});

describe('aggregation of saved verdicts', () => {
  it('aggregates per evaluator and per metadata group through the store', async () => {
    const { engine, store, addExecution } = setup();
    engine.register('example.math.v1', (ctx) => (ctx.subject as { ok: boolean }).ok);
    engine.register('other.v1', () => true);
    for (const [variant, ok] of [
      ['a', true],
      ['a', true],
      ['b', true],
      ['b', false],
    ] as const) {
      const exec = await addExecution();
      await engine.evaluate({ ok }, 'example.math.v1', { executionId: exec.executionId, metadata: { variant } });
      await engine.evaluate({ ok }, 'other.v1', { executionId: exec.executionId });
    }
    const perEvaluator = await store.aggregateEvaluations({ groupBy: ['evaluator'] });
    const byName = Object.fromEntries(perEvaluator.groups.map((g) => [g.key.evaluator, g.values.passRate]));
    expect(byName).toEqual({ 'example.math.v1': 0.75, 'other.v1': 1 });
    const perVariant = await store.aggregateEvaluations({
      filters: { evaluator: ['example.math.v1'] },
      groupBy: ['metadata.variant'],
    });
    const byVariant = Object.fromEntries(perVariant.groups.map((g) => [g.key['metadata.variant'], g.values]));
    expect(byVariant.a?.passRate).toBe(1);
    expect(byVariant.b?.passRate).toBe(0.5);
    expect(byVariant.b?.statusCounts.failed).toBe(1);
  });
});
