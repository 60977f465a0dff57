import { ModelValidationError } from '../errors/M3Error';
import { RequiredEvaluationError } from '../errors/RequiredEvaluationError';
import { EvaluationEngine } from '../evaluation/EvaluationEngine';
import type { EvaluationResult } from '../evaluation/EvaluationResult';
import { Redactor } from '../redaction/Redactor';
import type { ExecutionStore, StoredEvaluation } from '../store/ExecutionStore';
import { FakeChatCompletionsServer, type FakeChatReply } from '../testing/FakeChatCompletionsServer';
import { JudgeErrorCode } from './JudgeErrorCode';
import { LLMJudge } from './LLMJudge';
import type { LLMJudgeOptions } from './judgeConfig';

const KEY_ENV = 'M3_TEST_JUDGE_KEY';
const KEY = 'sk-judge-canary-9f8e7d6c5b4a';
const SUBJECT = { input: 'What is 2 + 3?', expected: 'The answer is 5.', actual: '5' };
const GOOD = { score: 0.9, rationale: 'matches the expected answer', abstain: false };

let fake: FakeChatCompletionsServer;
let baseUrl: string;

beforeEach(async () => {
  fake = new FakeChatCompletionsServer({ model: 'judge-fixture' });
  ({ baseUrl } = await fake.start());
  process.env[KEY_ENV] = KEY;
});
afterEach(async () => {
  await fake.close();
  delete process.env[KEY_ENV];
});

function localJudge(options: Partial<LLMJudgeOptions> = {}): LLMJudge {
  return new LLMJudge({ model: 'judge-fixture', baseUrl, auth: 'none', responseMode: 'json_text', ...options });
}

async function judgeWith(replies: FakeChatReply[], options: Partial<LLMJudgeOptions> = {}) {
  fake.enqueue(...replies);
  return localJudge(options).judge(SUBJECT);
}

describe('LLMJudge configuration', () => {
  it('requires a custom baseUrl to declare its response mode and credential', () => {
    expect(() => new LLMJudge({ model: 'm', baseUrl: 'https://judge.example.test/v1', apiKeyEnv: KEY_ENV })).toThrow(
      /custom LLMJudge baseUrl must declare responseMode/,
    );
    expect(
      () => new LLMJudge({ model: 'm', baseUrl: 'https://judge.example.test/v1', responseMode: 'json_text' }),
    ).toThrow(/must declare its credential: apiKeyEnv/);
    expect(
      () =>
        new LLMJudge({ model: 'm', baseUrl: 'https://judge.example.test/v1', responseMode: 'json_text', auth: 'none' }),
    ).toThrow(/auth: 'none' is allowed only for loopback endpoints/);
    expect(
      () =>
        new LLMJudge({
          model: 'm',
          baseUrl: 'http://judge.example.test/v1',
          responseMode: 'json_text',
          apiKeyEnv: KEY_ENV,
        }),
    ).toThrow(/plain http only for loopback/);
    expect(
      () =>
        new LLMJudge({
          model: 'm',
          baseUrl: 'https://u:p@judge.example.test/v1',
          responseMode: 'json_text',
          apiKeyEnv: KEY_ENV,
        }),
    ).toThrow(/must not carry credentials/);
    expect(() => new LLMJudge({ model: '' })).toThrow(ModelValidationError);
    expect(() => new LLMJudge({ model: 'm', threshold: 1.2 })).toThrow(/threshold/);
    expect(() => new LLMJudge({ model: 'm', timeoutMs: 0 })).toThrow(/timeoutMs/);
    expect(() => new LLMJudge({ model: 'm', maxRetries: 9 })).toThrow(/maxRetries/);
    expect(() => new LLMJudge({ model: 'm', apiKeyEnv: 'not a name' })).toThrow(/apiKeyEnv/);
    expect(() => new LLMJudge({ model: 'm', apiKeyEnv: 'M3_ACCESS_TOKEN' })).toThrow(/M3_ACCESS_TOKEN/);
  });

  it('defaults to the OpenAI endpoint, json_schema, M3_JUDGE_API_KEY and threshold 0.8', () => {
    const judge = new LLMJudge({ model: 'gpt-judge' });
    expect(judge.config).toMatchObject({
      baseUrl: 'https://api.openai.com/v1',
      endpointHost: 'api.openai.com',
      responseMode: 'json_schema',
      apiKeyEnv: 'M3_JUDGE_API_KEY',
      auth: 'env',
      threshold: 0.8,
      maxRetries: 1,
    });
    expect(new LLMJudge({ model: 'gpt-judge' }).configDigest).toBe(judge.configDigest);
    expect(new LLMJudge({ model: 'gpt-judge', threshold: 0.5 }).configDigest).not.toBe(judge.configDigest);
  });
});

describe('LLMJudge verdicts', () => {
  it('passes at or above the threshold and fails below, with provenance', async () => {
    const passed = await judgeWith([{ content: GOOD }], { rubricId: 'math', rubricVersion: '2' });
    expect(passed).toMatchObject({
      status: 'passed',
      score: 0.9,
      rationale: 'matches the expected answer',
      errorCode: null,
    });
    expect(passed.provenance).toMatchObject({
      kind: 'llm_judge',
      provider: 'openai',
      model: 'judge-fixture',
      endpointHost: new URL(baseUrl).host,
      responseMode: 'json_text',
      rubricId: 'math',
      rubricVersion: '2',
      threshold: 0.8,
      requestId: 'req_fake_1',
      attempts: 1,
      usage: { promptTokens: 10, completionTokens: 5, totalTokens: 15 },
      returnedModel: 'judge-fixture',
    });
    expect(typeof passed.provenance.latencyMs).toBe('number');
    expect(passed.metrics).toMatchObject({ attempts: 1, totalTokens: 15, threshold: 0.8 });
    const edge = await judgeWith([{ content: { ...GOOD, score: 0.8 } }]);
    expect(edge.status).toBe('passed');
    const failed = await judgeWith([{ content: { ...GOOD, score: 0.3, rationale: 'wrong' } }]);
    expect(failed).toMatchObject({ status: 'failed', score: 0.3, rationale: 'wrong' });
    const strict = await judgeWith([{ content: GOOD }], { threshold: 0.95 });
    expect(strict.status).toBe('failed');
  });

  it('sends the contract request: system instructions and input/expected/actual/rubric as JSON', async () => {
    await judgeWith([{ content: GOOD }], { rubric: 'Exact number required.' });
    const body = fake.requests[0]?.body as {
      model: string;
      messages: { role: string; content: string }[];
      response_format?: unknown;
    };
    expect(body.model).toBe('judge-fixture');
    expect(body.response_format).toBeUndefined();
    expect(body.messages.map((m) => m.role)).toEqual(['system', 'user']);
    expect(body.messages[0]?.content).toMatch(/untrusted data/);
    expect(JSON.parse(body.messages[1]!.content)).toEqual({ ...SUBJECT, rubric: 'Exact number required.' });
  });

  it('asks for a strict json_schema response format in json_schema mode', async () => {
    await judgeWith([{ content: GOOD }], { responseMode: 'json_schema' });
    const body = fake.requests[0]?.body as {
      response_format: {
        type: string;
        json_schema: { name: string; strict: boolean; schema: { required: string[]; additionalProperties: boolean } };
      };
    };
    expect(body.response_format.type).toBe('json_schema');
    expect(body.response_format.json_schema).toMatchObject({ name: 'm3_judgment', strict: true });
    expect(body.response_format.json_schema.schema).toMatchObject({
      additionalProperties: false,
      required: ['score', 'rationale', 'abstain'],
    });
  });

  it("sends no Authorization header with auth 'none' and a bearer key with apiKeyEnv", async () => {
    await judgeWith([{ content: GOOD }]);
    expect(fake.requests[0]?.headers.authorization).toBeUndefined();
    fake.enqueue({ content: GOOD });
    const keyed = new LLMJudge({ model: 'judge-fixture', baseUrl, apiKeyEnv: KEY_ENV, responseMode: 'json_text' });
    expect((await keyed.judge(SUBJECT)).status).toBe('passed');
    expect(fake.requests[1]?.headers.authorization).toBe(`Bearer ${KEY}`);
  });

  it('accepts a fenced JSON reply in json_text mode', async () => {
    const verdict = await judgeWith([{ content: '```json\n' + JSON.stringify(GOOD) + '\n```' }]);
    expect(verdict.status).toBe('passed');
  });
});

describe('LLMJudge error codes (never thrown)', () => {
  async function expectCode(replies: FakeChatReply[], code: string, options: Partial<LLMJudgeOptions> = {}) {
    const verdict = await judgeWith(replies, options);
    expect(verdict.status).toBe('error');
    expect(verdict.errorCode).toBe(code);
    expect(verdict.metrics.errorCode).toBe(code);
    expect(verdict.provenance.errorCode).toBe(code);
    expect(verdict.score).toBeNull();
    return verdict;
  }

  it('judge_credential_missing: no key, no request', async () => {
    delete process.env[KEY_ENV];
    const judge = new LLMJudge({ model: 'm', baseUrl, apiKeyEnv: KEY_ENV, responseMode: 'json_text' });
    const verdict = await judge.judge(SUBJECT);
    expect(verdict.errorCode).toBe(JudgeErrorCode.CREDENTIAL_MISSING);
    expect(verdict.rationale).toContain(`set the environment variable ${KEY_ENV}`);
    expect(fake.requests).toHaveLength(0);
  });

  it('judge_input_invalid: a subject that is not three strings is not sent', async () => {
    const verdict = await localJudge().judge({ input: 'q', expected: 5, actual: 'x' });
    expect(verdict.errorCode).toBe(JudgeErrorCode.INPUT_INVALID);
    expect(verdict.rationale).toContain('expected must be a string');
    expect(fake.requests).toHaveLength(0);
    const blank = await localJudge().judge({ ...SUBJECT, expected: ' ' });
    expect(blank.errorCode).toBe(JudgeErrorCode.INPUT_INVALID);
    expect(blank.rationale).toContain('expected answer is blank and the judge has no rubric');
    fake.enqueue({ content: GOOD });
    const rubricOnly = await localJudge({ rubric: 'The reply must be polite.' }).judge({
      input: '',
      expected: '',
      actual: 'Thanks!',
    });
    expect(rubricOnly.status).toBe('passed');
  });

  it('judge_refused: a refusal message or a content filter', async () => {
    const verdict = await expectCode([{ refusal: 'I cannot help with that' }], JudgeErrorCode.REFUSED);
    expect(verdict.rationale).toBe('the judge model refused to grade this subject');
    await expectCode([{ content: '', finishReason: 'content_filter' }], JudgeErrorCode.REFUSED);
  });

  it.each([
    ['not JSON', { content: 'looks right to me' }, 'not JSON'],
    ['a score out of range', { content: { ...GOOD, score: 1.5 } }, '/score must be <= 1'],
    ['a missing field', { content: { score: 0.9, rationale: 'x' } }, "must have required property 'abstain'"],
    ['an extra field', { content: { ...GOOD, verdict: 'pass' } }, 'must NOT have additional properties'],
    [
      'a rationale over 2000 characters',
      { content: { ...GOOD, rationale: 'x'.repeat(2001) } },
      '/rationale must NOT have more than 2000',
    ],
    ['no score without abstaining', { content: { ...GOOD, score: null } }, 'no score but did not abstain'],
    ['empty content', { content: '' }, 'no text content'],
    ['a cut-off reply', { content: '{"score": 0.', finishReason: 'length' as const }, 'cut off'],
    ['a body that is not a completion', { rawBody: '{"choices": []}' }, 'no choices[0].message'],
  ])('judge_malformed_response: %s', async (_label, reply, problem) => {
    const verdict = await expectCode([reply], JudgeErrorCode.MALFORMED_RESPONSE);
    expect(verdict.rationale).toContain(problem);
  });

  it('judge_abstained: keeps the judge rationale', async () => {
    const verdict = await expectCode(
      [{ content: { score: null, rationale: 'the expected answer is missing', abstain: true } }],
      JudgeErrorCode.ABSTAINED,
    );
    expect(verdict.rationale).toBe('judge abstained: the expected answer is missing');
  });

  it('judge_timeout: a reply slower than timeoutMs, not retried', async () => {
    // The reply would come after the test's own timeout: a judge that waited for it fails the test.
    const verdict = await expectCode([{ delayMs: 60_000, content: GOOD }], JudgeErrorCode.TIMEOUT, { timeoutMs: 200 });
    expect(verdict.rationale).toContain('did not answer within 200 ms');
    expect(fake.requests).toHaveLength(1);
  });

  it('judge_http_error: 4xx is not retried, 5xx and 429 are retried up to maxRetries', async () => {
    const bad = await expectCode([{ status: 400 }, { content: GOOD }], JudgeErrorCode.HTTP_ERROR);
    expect(bad.rationale).toContain('answered HTTP 400 after 1 attempt(s)');
    expect(fake.requests).toHaveLength(1);
    fake.requests.length = 0;
    await fake.close();
    fake = new FakeChatCompletionsServer();
    ({ baseUrl } = await fake.start());
    const down = await expectCode([{ status: 500 }, { status: 502 }, { status: 503 }], JudgeErrorCode.HTTP_ERROR, {
      maxRetries: 2,
    });
    expect(down.rationale).toContain('answered HTTP 503 after 3 attempt(s)');
    expect(fake.requests).toHaveLength(3);
  });

  it('retries a 429 and then passes', async () => {
    const verdict = await judgeWith([{ status: 429, headers: { 'retry-after': '0' } }, { content: GOOD }]);
    expect(verdict.status).toBe('passed');
    expect(verdict.provenance.attempts).toBe(2);
    expect(fake.requests).toHaveLength(2);
  });

  it('judge_http_error: a redirect is never followed', async () => {
    const verdict = await expectCode(
      [{ status: 302, headers: { location: 'https://elsewhere.example.test/v1/chat/completions' } }],
      JudgeErrorCode.HTTP_ERROR,
      { maxRetries: 0 },
    );
    expect(verdict.rationale).toContain('redirects are never followed');
    expect(fake.requests).toHaveLength(1);
  });

  it('judge_network_error: a dropped connection or a closed port', async () => {
    await expectCode([{ dropConnection: true }], JudgeErrorCode.NETWORK_ERROR, { maxRetries: 0 });
    await fake.close();
    const verdict = await localJudge().judge(SUBJECT);
    expect(verdict.errorCode).toBe(JudgeErrorCode.NETWORK_ERROR);
    expect(verdict.rationale).toMatch(/could not reach the judge endpoint 127\.0\.0\.1:\d+/);
  });
});

/** A store that keeps every saved row, to search for the key. */
function recordingStore(): { store: ExecutionStore; rows: StoredEvaluation[] } {
  const rows: StoredEvaluation[] = [];
  const store = {
    saveEvaluation: async (row: StoredEvaluation) => void rows.push(row),
    isRequiredLineage: async () => false,
    getExecution: async () => {
      throw new Error('unknown');
    },
    getTraceView: async () => {
      throw new Error('unknown');
    },
  } as unknown as ExecutionStore;
  return { store, rows };
}

describe('judges in the EvaluationEngine', () => {
  function engineWith(store: ExecutionStore, redactor = new Redactor()) {
    return new EvaluationEngine({
      store,
      redactor,
      runId: null,
      suiteName: 'answers',
      caseId: 'add',
      executionLabels: async () => null,
    });
  }

  it('judgeResponse saves the verdict with judge labels and never the key', async () => {
    const { store, rows } = recordingStore();
    const redactor = new Redactor();
    const engine = engineWith(store, redactor);
    fake.enqueue({ content: { ...GOOD, rationale: `the answer is right; also ${KEY}` } });
    const judge = new LLMJudge({
      model: 'judge-fixture',
      baseUrl,
      apiKeyEnv: KEY_ENV,
      responseMode: 'json_text',
      rubricId: 'math.v1',
    });
    const result = await engine.judgeResponse({ name: 'answer.correctness.v1', ...SUBJECT, judge });
    expect(result).toMatchObject({ evaluator: 'answer.correctness.v1', status: 'passed', score: 0.9 });
    expect(result.rationale).toBe('the answer is right; also [REDACTED]');
    expect(result.provenance).toMatchObject({ kind: 'llm_judge', model: 'judge-fixture', rubricId: 'math.v1' });
    expect(rows[0]?.labels).toMatchObject({ judgeModel: 'judge-fixture', rubricId: 'math.v1', suiteName: 'answers' });
    // Token counters survive redaction (their names contain TOKEN, their values are not secrets).
    expect(result.metrics).toMatchObject({ promptTokens: 10, completionTokens: 5, totalTokens: 15 });
    expect(result.provenance.usage).toEqual({ promptTokens: 10, completionTokens: 5, totalTokens: 15 });
    expect(redactor.containsSecret(`x${KEY}x`)).toBe(true);
    expect(JSON.stringify(rows)).not.toContain(KEY);
  });

  it('saves judge failures as error evaluations and throws only when required', async () => {
    const { store } = recordingStore();
    const engine = engineWith(store);
    const judge = localJudge();
    fake.enqueue({ status: 400 });
    const advisory = await engine.judgeResponse({ name: 'a.v1', ...SUBJECT, judge });
    expect(advisory).toMatchObject({ status: 'error', metrics: { errorCode: 'judge_http_error' } });
    fake.enqueue({ content: { ...GOOD, score: 0.1 } });
    const error = await engine
      .judgeResponse({ name: 'a.v1', ...SUBJECT, judge, required: true })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequiredEvaluationError);
    expect((error as RequiredEvaluationError).result.status).toBe('failed');
  });

  it('refuses one evaluator name with two judge configurations', async () => {
    const engine = engineWith(recordingStore().store);
    fake.enqueue({ content: GOOD });
    await engine.judgeResponse({ name: 'same.v1', ...SUBJECT, judge: localJudge() });
    await expect(
      engine.judgeResponse({ name: 'same.v1', ...SUBJECT, judge: localJudge({ threshold: 0.5 }) }),
    ).rejects.toThrow('conflicting judge configuration for evaluator same.v1');
    fake.enqueue({ content: GOOD });
    // An equally configured judge (a new instance) is fine.
    expect((await engine.judgeResponse({ name: 'same.v1', ...SUBJECT, judge: localJudge() })).status).toBe('passed');
    expect(() => engine.register('cb.v1', () => true)).not.toThrow();
    expect(() => engine.register('cb.v1', localJudge())).toThrow(/already registered/);
  });

  it('can be registered as an evaluator and evaluated on a subject', async () => {
    const engine = engineWith(recordingStore().store);
    engine.register('answer.correctness.v1', localJudge({ rubricId: 'r1' }));
    fake.enqueue({ content: { ...GOOD, score: 0.2, rationale: 'off by one' } });
    const result: EvaluationResult = await engine.evaluate(SUBJECT, 'answer.correctness.v1');
    expect(result).toMatchObject({
      status: 'failed',
      score: 0.2,
      rationale: 'off by one',
      provenance: { rubricId: 'r1' },
    });
    const invalid = await engine.evaluate({ answer: 5 }, 'answer.correctness.v1');
    expect(invalid).toMatchObject({ status: 'error', metrics: { errorCode: 'judge_input_invalid' } });
  });
});
