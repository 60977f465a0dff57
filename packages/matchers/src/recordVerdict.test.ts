import { m3Matchers } from './index';
import { EXEC_ID, fakeKit, failureOf, linked, trace, weatherTrace } from './matchers.testkit';

expect.extend(m3Matchers);

function lineHere(): number {
  const frame = new Error().stack!.split('\n')[2]!;
  return Number(/:(\d+):\d+\)?$/.exec(frame)![1]);
}

const flush = () => new Promise((resolve) => setImmediate(resolve));

describe('recording matcher verdicts (contract §7)', () => {
  afterEach(() => {
    delete (globalThis as { m3Kit?: unknown }).m3Kit;
    expect.setState({ m3Kit: undefined } as never);
  });

  test('a passing matcher on a kit-linked subject records passed with rationale ok', () => {
    const kit = fakeKit();
    const view = linked(weatherTrace().view(), kit);
    const here = lineHere();
    expect(view).toHaveToolCall('get_weather', { count: 2 });
    expect(kit.checks).toHaveLength(1);
    expect(kit.checks[0]).toMatchObject({
      evaluator: 'm3.expect.toHaveToolCall',
      passed: true,
      rationale: 'ok',
      executionId: EXEC_ID,
      turnId: null,
      metadata: {
        negated: false,
        testPath: expect.stringContaining('recordVerdict.test.ts'),
        line: here + 1,
        // Reports name the assertion by its call site and these arguments (issue 27).
        arguments: '"get_weather", {"count":2}',
      },
    });
    // The assertion's arguments and site are part of the subject, so two checks are two lineages.
    expect(kit.checks[0]!.subject).toMatchObject({
      matcher: 'toHaveToolCall',
      received: { executionId: EXEC_ID, turnId: null },
      arguments: ['get_weather', { count: 2 }],
      line: here + 1,
    });
  });

  test('a failing negated matcher records failed after negation, with the colourless message', () => {
    const kit = fakeKit();
    const view = linked(weatherTrace().view(), kit);
    const message = failureOf(() => expect(view).not.toHaveToolCall('search'));
    expect(kit.checks[0]).toMatchObject({
      evaluator: 'm3.expect.not.toHaveToolCall',
      passed: false,
      metadata: { negated: true, matcher: 'toHaveToolCall' },
    });
    expect(kit.checks[0]!.rationale).toBe(message);
    expect(kit.checks[0]!.rationale).not.toContain('\u001b[');
  });

  test('a negated matcher that holds records passed', () => {
    const kit = fakeKit();
    expect(linked(weatherTrace().view(), kit)).not.toHaveToolCall('delete_file');
    expect(kit.checks[0]).toMatchObject({
      evaluator: 'm3.expect.not.toHaveToolCall',
      passed: true,
      rationale: 'ok',
      metadata: { negated: true },
    });
  });

  test('negated and positive uses of one matcher record under two evaluator names', () => {
    const kit = fakeKit();
    const view = linked(weatherTrace().view(), kit);
    expect(view).toHaveToolCall('get_weather');
    expect(view).not.toHaveToolCall('delete_file');
    failureOf(() => expect(view).not.toHaveToolCall('get_weather'));
    expect(kit.checks.map((c) => [c.evaluator, c.passed])).toEqual([
      ['m3.expect.toHaveToolCall', true],
      ['m3.expect.not.toHaveToolCall', true],
      ['m3.expect.not.toHaveToolCall', false],
    ]);
  });

  test('an unusable assertion records failed in both directions', () => {
    const kit = fakeKit();
    const twoServers = linked(
      trace({
        calls: [
          { tool: 's', server: 'a' },
          { tool: 's', server: 'b' },
        ],
      }).view(),
      kit,
    );
    failureOf(() => expect(twoServers).not.toHaveToolCall('s'));
    failureOf(() => expect(twoServers).toHaveToolCall('s'));
    expect(kit.checks.map((c) => c.passed)).toEqual([false, false]);
  });

  test('tool results record with their execution id; the kit comes from the link', () => {
    const kit = fakeKit();
    const result = linked(
      { content: [{ type: 'text', text: 'hi' }], isError: false, executionId: EXEC_ID, tool: 't', server: 's' },
      kit,
    );
    expect(result).toHaveText('hi');
    expect(kit.checks[0]).toMatchObject({ evaluator: 'm3.expect.toHaveText', passed: true, executionId: EXEC_ID });
  });

  test('recordChecks false records nothing', () => {
    const kit = fakeKit({ recordChecks: false });
    expect(linked(weatherTrace().view(), kit)).toHaveToolCall('search');
    expect(kit.checks).toHaveLength(0);
  });

  test('the m3Kit global is used for subjects of an execution that carry no link', () => {
    const kit = fakeKit();
    (globalThis as { m3Kit?: unknown }).m3Kit = kit;
    expect(weatherTrace().view().toJSON()).toHaveToolCall('search');
    expect(kit.checks).toHaveLength(1);
  });

  test('m3Kit in the matcher state (expect.setState) is used too', () => {
    const kit = fakeKit();
    expect.setState({ m3Kit: kit } as never);
    expect(weatherTrace()).toBeCompleted();
    expect(kit.checks[0]).toMatchObject({ evaluator: 'm3.expect.toBeCompleted', passed: true });
  });

  test('a subject that belongs to no execution is not recorded', () => {
    const kit = fakeKit();
    (globalThis as { m3Kit?: unknown }).m3Kit = kit;
    expect('plain text').toHaveText('plain text');
    expect(kit.checks).toHaveLength(0);
  });

  test('a subject of no execution never reads the m3Kit global (reading it may create a kit)', () => {
    const getter = jest.fn(() => fakeKit());
    Object.defineProperty(globalThis, 'm3Kit', { get: getter, configurable: true });
    try {
      expect('plain text').toHaveTextContaining('plain');
      expect(getter).not.toHaveBeenCalled();
      expect(weatherTrace().view().toJSON()).toHaveToolCall('search');
      expect(getter).toHaveBeenCalled();
    } finally {
      delete (globalThis as { m3Kit?: unknown }).m3Kit;
    }
  });

  test('usage errors are thrown, not recorded', () => {
    const kit = fakeKit();
    expect(() => expect(linked(weatherTrace().view(), kit)).toHaveToolCall('x', { count: -1 })).toThrow();
    expect(kit.checks).toHaveLength(0);
  });

  test('a rejected recordCheck never becomes an unhandled rejection', async () => {
    const kit = fakeKit({ reject: true });
    const unhandled = jest.fn();
    process.on('unhandledRejection', unhandled);
    try {
      expect(linked(weatherTrace().view(), kit)).toHaveToolCall('search');
      await flush();
      await flush();
      expect(kit.checks).toHaveLength(1);
      expect(unhandled).not.toHaveBeenCalled();
    } finally {
      process.off('unhandledRejection', unhandled);
    }
  });

  test('a secret in the subject never reaches the recorded rationale', () => {
    const kit = fakeKit({ secrets: ['hunter2-secret-value'] });
    const view = linked(trace({ calls: [{ tool: 'login', arguments: { user: 'hunter2-secret-value' } }] }).view(), kit);
    failureOf(() => expect(view).toHaveToolCall('logout'));
    expect(kit.checks[0]!.rationale).not.toContain('hunter2-secret-value');
    expect(kit.checks[0]!.rationale).toContain('[REDACTED]');
  });
});
